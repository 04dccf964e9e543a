/** The open notebook's toolbar: back home, title, run all / interrupt / restart, kernel state. */
import type { ReactNode } from 'react';
import { useAppStore } from '../notebook/store/context';
import { BackIcon, ClearIcon, PlayAllIcon, RestartIcon, StopIcon } from '../notebook/ui/icons';
import { DevicePanelLauncher } from '../panels/devices/DevicePanelLauncher';
import { FilesPanelLauncher } from '../panels/files/FilesPanelLauncher';
import { TimingPanelLauncher } from '../panels/timing/TimingPanelLauncher';
import { createKernelClient } from './kernelFactory';
import { BackendBadge, KernelStatus } from './KernelStatus';
import { LanguageBadge } from './LanguageBadge';
import { navigate } from './routing';
import { SettingsButton } from './settings/SettingsButton';

export function Toolbar({ children }: { children?: ReactNode }) {
  const title = useAppStore((s) => s.notebook?.title ?? '');
  const setTitle = useAppStore((s) => s.setTitle);
  const runAll = useAppStore((s) => s.runAll);
  const interrupt = useAppStore((s) => s.interrupt);
  const restart = useAppStore((s) => s.restart);
  const clearAllOutputs = useAppStore((s) => s.clearAllOutputs);

  return (
    <header className="toolbar">
      <a
        href="./"
        className="toolbar-back"
        data-testid="back-home"
        title="All notebooks"
        onClick={(event) => {
          event.preventDefault();
          navigate({ page: 'home' });
        }}
      >
        <BackIcon />
        <span>Notebooks</span>
      </a>
      <input
        className="toolbar-title"
        aria-label="Notebook title"
        value={title}
        spellCheck={false}
        onChange={(event) => setTitle(event.target.value)}
        onBlur={(event) => {
          if (!event.target.value.trim()) setTitle('Untitled notebook');
        }}
      />
      <div className="toolbar-actions">
        <button type="button" className="button" data-testid="run-all" onClick={runAll}>
          <PlayAllIcon /> Run all
        </button>
        <button type="button" className="button" data-testid="interrupt" onClick={interrupt}>
          <StopIcon /> Interrupt
        </button>
        <button type="button" className="button" data-testid="restart-kernel" onClick={restart}>
          <RestartIcon /> Restart
        </button>
        <button
          type="button"
          className="button button-quiet"
          data-testid="clear-all-outputs"
          onClick={clearAllOutputs}
        >
          <ClearIcon /> Clear outputs
        </button>
        <DevicePanelLauncher />
        <FilesPanelLauncher />
        <TimingPanelLauncher createKernel={createTimingKernel} />
        <SettingsButton />
        {children}
      </div>
      <div className="toolbar-kernel">
        <LanguageBadge />
        <BackendBadge />
        <KernelStatus />
      </div>
    </header>
  );
}

/** The timing panel's own kernel: a second worker, so benchmarks leave the notebook's state alone. */
const createTimingKernel = () => createKernelClient({});
