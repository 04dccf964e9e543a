/** The home page's statement of which WebGPU adapter (or none) the notebooks will use here. */
import { useEffect, useState } from 'react';
import { capabilitiesSentence, probeCapabilities, type Capabilities } from './capabilities';
import './home-tools.css';

export function BrowserCapabilities() {
  const [capabilities, setCapabilities] = useState<Capabilities | null>(null);

  useEffect(() => {
    let cancelled = false;
    void probeCapabilities(navigator.gpu).then((result) => {
      if (!cancelled) setCapabilities(result);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <p
      className={`browser-capabilities is-${capabilities?.kind ?? 'pending'}`}
      data-testid="browser-capabilities"
      data-kind={capabilities?.kind ?? 'pending'}
      role="status"
    >
      {capabilities ? capabilitiesSentence(capabilities) : 'Checking what this browser offers…'}
    </p>
  );
}
