import { describe, expect, it } from 'vitest';
import { fromIpynb, toIpynb } from '../../notebook/files/ipynb';
import { createNotebook } from '../../notebook/model';
import { deviceLostNotice } from './lost-notice';
import { deviceSettingsOf, withDeviceSettings } from './notebook-settings';
import { draftFrom, settingsFrom, withLogicalCount } from './settings-draft';

describe('the device form', () => {
  it('turns a split into settings and back', () => {
    const draft = draftFrom({ visible: null, gpus: [] }, 2);
    expect(draft).toEqual([
      { visible: true, memoryGrowth: false, limits: [null] },
      { visible: true, memoryGrowth: false, limits: [null] },
    ]);
    expect(settingsFrom(draft)).toEqual({
      visible: null,
      gpus: [
        { memoryGrowth: false, logical: null },
        { memoryGrowth: false, logical: null },
      ],
    });
    const split = withLogicalCount({ ...draft[0], limits: [512] }, 3);
    expect(split.limits).toEqual([512, 512, 512]);
    const settings = settingsFrom([split, { ...draft[1], visible: false }]);
    expect(settings.visible).toEqual([0]);
    expect(settings.gpus[0].logical).toEqual([
      { memoryLimit: 512 },
      { memoryLimit: 512 },
      { memoryLimit: 512 },
    ]);
    expect(draftFrom(settings, 2)[0]).toEqual(split);
    expect(withLogicalCount(split, 99).limits).toHaveLength(8);
    expect(withLogicalCount(split, 0).limits).toEqual([512]);
  });

  it('clears memory growth when splitting, and refuses bad limits', () => {
    const growing = { visible: true, memoryGrowth: true, limits: [null] };
    expect(settingsFrom([growing]).gpus[0]).toEqual({ memoryGrowth: true, logical: null });
    expect(withLogicalCount(growing, 2).memoryGrowth).toBe(false);
    expect(() => settingsFrom([{ visible: true, memoryGrowth: false, limits: [0, 5] }])).toThrow(
      'a memory limit is a positive number of MiB, got 0',
    );
  });
});

describe('device settings in the notebook', () => {
  it('travel through .ipynb (and so through share links) with the title', () => {
    const settings = {
      visible: null,
      gpus: [{ memoryGrowth: false, logical: [{ memoryLimit: 256 }, { memoryLimit: 256 }] }],
    };
    const notebook = withDeviceSettings(createNotebook({ title: 'Two GPUs' }), settings);
    expect(deviceSettingsOf(notebook)).toEqual(settings);
    const json = toIpynb(notebook);
    expect((json.metadata.gpubook as Record<string, unknown>).title).toBe('Two GPUs');
    const back = fromIpynb(JSON.parse(JSON.stringify(json)));
    expect(back.title).toBe('Two GPUs');
    expect(deviceSettingsOf(back)).toEqual(settings);
    expect(deviceSettingsOf(withDeviceSettings(back, null))).toBeNull();
  });

  it('ignores malformed settings from a link', () => {
    const notebook = createNotebook();
    const bad = {
      ...notebook,
      metadata: { ...notebook.metadata, gpubook: { devices: { gpus: 'all' } } },
    };
    expect(deviceSettingsOf(bad)).toBeNull();
    const odd = fromIpynb({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { gpubook: 'x' },
      cells: [],
    });
    expect(odd.metadata.gpubook).toBeUndefined();
  });

  it('names the lost device and the cell that was running', () => {
    const notebook = createNotebook();
    const cell = { ...notebook.cells[0], executionCount: 4 };
    const notice = deviceLostNotice(
      {
        type: 'device-lost',
        device: 'gpu:1',
        reason: 'destroyed',
        cellId: cell.id,
        recovered: ['gpu:1'],
      },
      { ...notebook, cells: [cell] },
    );
    expect(notice.message).toBe('GPU gpu:1 was lost while cell [4] ran');
    expect(notice.detail).toContain('recreated gpu:1 without a reload');
  });
});
