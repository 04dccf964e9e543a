/**
 * Device settings kept with a notebook, as `metadata.gpubook.devices`, so that saving, exporting
 * and sharing a notebook carry its GPU split. Reading validates: metadata from a link is untrusted.
 */
import { parseDeviceSettings, type DeviceSettings } from '../../engine/devices/settings';
import type { Notebook } from '../../notebook/model';

function ownMetadata(notebook: Notebook): Record<string, unknown> {
  const own = notebook.metadata.gpubook;
  return own !== null && typeof own === 'object' && !Array.isArray(own)
    ? (own as Record<string, unknown>)
    : {};
}

/** The notebook's device settings, or null when it has none (or they are malformed). */
export function deviceSettingsOf(notebook: Notebook | null): DeviceSettings | null {
  if (!notebook) return null;
  const value = ownMetadata(notebook).devices;
  if (value === undefined || value === null) return null;
  try {
    return parseDeviceSettings(value);
  } catch {
    return null;
  }
}

/** The notebook with these device settings (null removes them: the defaults apply). */
export function withDeviceSettings(notebook: Notebook, settings: DeviceSettings | null): Notebook {
  const { devices: _previous, ...rest } = ownMetadata(notebook);
  const own = settings === null ? rest : { ...rest, devices: settings };
  return { ...notebook, metadata: { ...notebook.metadata, gpubook: own } };
}
