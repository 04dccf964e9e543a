/**
 * Every panel's hints in the notebook's language: each panel rendered (React's server renderer,
 * no DOM needed) inside a Python notebook shows the Python faces' spellings and none of the
 * TypeScript ones, and inside a TypeScript notebook the reverse.
 *
 * The server renderer reads zustand stores through `getInitialState` (useSyncExternalStore's
 * server snapshot), so the stores here hand it their current state instead.
 */
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CellLanguage, DeviceReport } from '../../kernel/protocol';
import { ScriptedKernel } from '../../kernel/testing/scripted-worker';
import { createNotebook } from '../../notebook/model';
import { createAppStore, type AppStore } from '../../notebook/store/createAppStore';
import { StoreProvider } from '../../notebook/store/context';
import { DevicePanel } from '../devices/DevicePanel';
import { deviceStore } from '../devices/device-state';
import { FilesPanel } from '../files/FilesPanel';
import { TimingPanel } from '../timing/TimingPanel';
import type { TimingKernel } from '../timing/useTimingRun';
import { SNIPPETS, type Snippets } from './snippets';

const REPORT: DeviceReport = {
  physical: [
    {
      index: 0,
      name: '/physical_device:GPU:0',
      label: 'Test adapter',
      vendor: 'test',
      architecture: '',
      fallback: false,
      powerPreference: 'high-performance',
      visible: true,
      memoryGrowth: false,
      limits: { maxBufferSize: 2 ** 28 },
      features: [],
    },
  ],
  logical: [
    { name: 'gpu:0', tfName: '/device:GPU:0', physical: 0, memoryLimit: 2 ** 29, lost: null },
    { name: 'gpu:1', tfName: '/device:GPU:1', physical: 0, memoryLimit: 2 ** 29, lost: null },
  ],
  settings: {
    visible: null,
    gpus: [{ memoryGrowth: false, logical: [{ memoryLimit: 512 }, { memoryLimit: 512 }] }],
  },
  initialized: false,
  unavailable: null,
  settingsError: null,
};

const stopped: (() => void)[] = [];
const deviceInitial = deviceStore.getInitialState;
deviceStore.getInitialState = deviceStore.getState;
afterAll(() => {
  deviceStore.getInitialState = deviceInitial;
});
afterEach(() => {
  for (const stop of stopped.splice(0)) stop();
  deviceStore.setState({ report: null, memory: [], lost: null });
});

/** The panel's HTML as React renders it inside a notebook of `language`. */
function renderIn(language: CellLanguage, panel: ReactElement): string {
  const store = createAppStore({ createKernel: () => new ScriptedKernel().client });
  store.getState().openNotebook(createNotebook({ language }));
  stopped.push(() => store.getState().stopKernel());
  const current: AppStore = { ...store, getInitialState: store.getState };
  return renderToStaticMarkup(createElement(StoreProvider, { store: current, children: panel }));
}

/** `<code>` text as React escapes it. */
function code(text: string): string {
  return `<code>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;')}</code>`;
}

function expectSpellings(html: string, keys: (keyof Snippets)[], language: CellLanguage): void {
  const other: CellLanguage = language === 'python' ? 'typescript' : 'python';
  for (const key of keys) {
    expect(html, `${key} in ${language}`).toContain(code(SNIPPETS[language][key]));
    if (SNIPPETS[other][key] !== SNIPPETS[language][key]) {
      expect(html, `${key} not in ${other}`).not.toContain(code(SNIPPETS[other][key]));
    }
  }
}

const idleKernel = (): TimingKernel => new ScriptedKernel().client;

describe.each<CellLanguage>(['python', 'typescript'])('panels in a %s notebook', (language) => {
  it('the device panel', () => {
    deviceStore.setState({ report: REPORT });
    const html = renderIn(language, createElement(DevicePanel, { onClose: () => {} }));
    expectSpellings(
      html,
      [
        'emptyCache',
        'memoryAllocated',
        'setVisibleDevices',
        'setMemoryGrowth',
        'setLogicalDeviceConfiguration',
        'logicalDevice',
        'listPhysicalDevices',
        'listLogicalDevices',
        'deviceScope',
        'toDevice',
      ],
      language,
    );
  });

  it('the Files panel', () => {
    const html = renderIn(language, createElement(FilesPanel, { onClose: () => {} }));
    expectSpellings(html, ['save', 'load'], language);
  });

  it('the timing panel', () => {
    const html = renderIn(
      language,
      createElement(TimingPanel, { createKernel: idleKernel, onClose: () => {} }),
    );
    expectSpellings(html, ['compareDevices', 'clock'], language);
  });
});
