/**
 * Choosing visible GPUs, memory growth, and a split into logical GPUs with memory limits. Applying
 * stores the settings in the notebook (`metadata.gpubook.devices`, so a saved or shared notebook
 * keeps its split) and restarts the kernel, which applies them before any cell runs.
 */
import { useMemo, useState, type ReactNode } from 'react';
import {
  DeviceSettingsError,
  MAX_LOGICAL_PER_GPU,
  parseDeviceSettings,
  type DeviceSettings,
} from '../../engine/devices/settings';
import type { DeviceReport } from '../../kernel/protocol';
import { useAppStore } from '../../notebook/store/context';
import { useSnippets } from '../snippets/useSnippets';
import { withDeviceSettings } from './notebook-settings';
import { draftFrom, settingsFrom, withLogicalCount, type GpuDraft } from './settings-draft';

function savedSettings(value: unknown): DeviceSettings | null {
  if (value === undefined || value === null) return null;
  try {
    return parseDeviceSettings(value);
  } catch {
    return null;
  }
}

function limitValue(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

function GpuFields({
  index,
  label,
  gpu,
  onChange,
}: {
  index: number;
  label: string;
  gpu: GpuDraft;
  onChange: (next: GpuDraft) => void;
}) {
  const split = gpu.limits.length > 1;
  return (
    <fieldset className="device-gpu" data-testid="device-gpu-settings" data-physical={index}>
      <legend>
        GPU:{index} <span className="muted">{label}</span>
      </legend>
      <GpuCheck gpu={gpu} field="visible" testId="gpu-visible" onChange={onChange}>
        Visible
      </GpuCheck>
      <GpuCheck
        gpu={gpu}
        field="memoryGrowth"
        testId="memory-growth"
        disabled={split}
        onChange={onChange}
      >
        Memory growth: allocate as needed
      </GpuCheck>
      <label className="device-field">
        Logical GPUs
        <input
          type="number"
          data-testid="logical-gpu-count"
          min={1}
          max={MAX_LOGICAL_PER_GPU}
          value={gpu.limits.length}
          onChange={(e) => onChange(withLogicalCount(gpu, Number(e.target.value)))}
        />
      </label>
      <ol className="device-logical">
        {gpu.limits.map((limit, i) => (
          <li key={i}>
            <label className="device-field">
              Logical GPU {i + 1}: memory limit (MiB)
              <input
                type="number"
                data-testid="logical-memory-limit"
                min={1}
                placeholder="no limit"
                disabled={gpu.memoryGrowth}
                value={limit ?? ''}
                onChange={(e) => {
                  const limits = [...gpu.limits];
                  limits[i] = limitValue(e.target.value);
                  onChange({ ...gpu, limits });
                }}
              />
            </label>
          </li>
        ))}
      </ol>
    </fieldset>
  );
}

export function DeviceSettingsForm({ report }: { report: DeviceReport }) {
  const stored = useAppStore(
    (s) => (s.notebook?.metadata.gpubook as { devices?: unknown } | undefined)?.devices,
  );
  const changeNotebook = useAppStore((s) => s.changeNotebook);
  const restart = useAppStore((s) => s.restart);
  const saved = useMemo(() => savedSettings(stored), [stored]);
  const [draft, setDraft] = useState<GpuDraft[]>(() =>
    draftFrom(saved ?? report.settings, report.physical.length),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const snippets = useSnippets();

  const apply = (settings: DeviceSettings | null): void => {
    changeNotebook((nb) => withDeviceSettings(nb, settings));
    restart();
  };

  return (
    <form
      className="device-settings"
      onSubmit={(event) => {
        event.preventDefault();
        try {
          apply(settingsFrom(draft));
          setProblem(null);
        } catch (error) {
          if (!(error instanceof DeviceSettingsError)) throw error;
          setProblem(error.message);
        }
      }}
    >
      {draft.map((gpu, index) => (
        <GpuFields
          key={index}
          index={index}
          label={report.physical[index]?.label ?? ''}
          gpu={gpu}
          onChange={(next) => setDraft(draft.map((g, i) => (i === index ? next : g)))}
        />
      ))}
      <div className="muted device-help">
        The same settings in a cell, before its first GPU tensor:
        <ul className="device-snippets">
          <li>
            <code>{snippets.setVisibleDevices}</code>
          </li>
          <li>
            <code>{snippets.setMemoryGrowth}</code>
          </li>
          <li>
            <code>{snippets.setLogicalDeviceConfiguration}</code>, each a{' '}
            <code>{snippets.logicalDevice}</code>
          </li>
        </ul>
      </div>
      {problem && (
        <p className="device-problem" role="alert">
          {problem}
        </p>
      )}
      {report.settingsError && (
        <p className="device-problem" role="alert">
          The notebook&apos;s device settings were refused ({report.settingsError}); the defaults
          are in use.
        </p>
      )}
      <div className="device-actions">
        <button type="submit" className="button button-primary" data-testid="apply-device-settings">
          Apply and restart kernel
        </button>
        <button
          type="button"
          className="button"
          data-testid="reset-device-settings"
          onClick={() => {
            setDraft(draftFrom({ visible: null, gpus: [] }, report.physical.length));
            apply(null);
          }}
        >
          Defaults
        </button>
      </div>
      <p className="muted device-help">
        {saved ? 'Saved with this notebook' : 'Not saved with this notebook yet'}: a shared link or
        an exported file reproduces the split. Applying restarts the kernel, so variables are lost.
      </p>
    </form>
  );
}

/** A checkbox for one of a GPU's yes/no settings, labelled by `children`. */
function GpuCheck({
  gpu,
  field,
  testId,
  disabled = false,
  onChange,
  children,
}: {
  gpu: GpuDraft;
  field: 'visible' | 'memoryGrowth';
  testId: string;
  disabled?: boolean;
  onChange: (next: GpuDraft) => void;
  children: ReactNode;
}) {
  return (
    <label className="device-check">
      <input
        type="checkbox"
        data-testid={testId}
        checked={gpu[field]}
        disabled={disabled}
        onChange={(e) => onChange({ ...gpu, [field]: e.target.checked })}
      />
      {children}
    </label>
  );
}
