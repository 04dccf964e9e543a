import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceMonitor, type DeviceHooks } from './device-monitor';
import type { DeviceReport, MemorySnapshot, WorkerEvent } from './protocol';

function report(logical: string[]): DeviceReport {
  return {
    physical: [],
    logical: logical.map((name, i) => ({
      name,
      tfName: `/device:GPU:${i}`,
      physical: 0,
      memoryLimit: null,
      lost: null,
    })),
    settings: { visible: null, gpus: [] },
    initialized: false,
    unavailable: null,
    settingsError: null,
  };
}

/** Hooks over a fake device whose bytes in use the test sets. */
function fakeHooks() {
  const state = {
    inUse: 0,
    pooled: 64,
    logical: ['gpu:0'],
    lostListener: null as null | ((e: { device: string; reason: string }) => void),
  };
  const hooks: DeviceHooks = {
    report: () => report(state.logical),
    memory: (): MemorySnapshot[] => [
      {
        device: 'gpu:0',
        inUse: state.inUse,
        peak: state.inUse,
        limit: 1024,
        pooled: state.pooled,
        spilled: 0,
      },
    ],
    emptyCache: () => {
      state.pooled = 0;
    },
    onLost: (listener) => {
      state.lostListener = listener;
      return () => (state.lostListener = null);
    },
    recover: () => ['gpu:0'],
  };
  return { state, hooks };
}

describe('DeviceMonitor', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('posts memory while a cell runs, only when it changed, at most every 250 ms', () => {
    const events: WorkerEvent[] = [];
    const { state, hooks } = fakeHooks();
    const monitor = new DeviceMonitor(
      (e) => events.push(e),
      hooks,
      () => null,
    );
    monitor.start();
    expect(events.map((e) => e.type)).toEqual(['devices', 'memory']);
    monitor.cellStarted();
    vi.advanceTimersByTime(1000);
    expect(events).toHaveLength(2); // nothing changed, nothing sent
    for (let ms = 0; ms < 1000; ms += 50) {
      state.inUse += 100; // changes 20 times a second
      vi.advanceTimersByTime(50);
    }
    const memory = events.filter(
      (e): e is Extract<WorkerEvent, { type: 'memory' }> => e.type === 'memory',
    );
    expect(memory).toHaveLength(1 + 4);
    expect(memory[memory.length - 1].devices[0].inUse).toBe(2000);
    state.logical = ['gpu:0', 'gpu:1'];
    monitor.cellFinished();
    expect(events[events.length - 1]).toMatchObject({ type: 'devices' });
    const count = events.length;
    vi.advanceTimersByTime(1000);
    state.inUse = 0;
    vi.advanceTimersByTime(1000);
    expect(events).toHaveLength(count); // no polling between cells
    monitor.emptyCache();
    expect(events[events.length - 1]).toMatchObject({
      type: 'memory',
      devices: [{ inUse: 0, pooled: 0 }],
    });
  });

  it('charges a lost device to the running cell and recreates it', () => {
    const events: WorkerEvent[] = [];
    const warnings: string[] = [];
    const { state, hooks } = fakeHooks();
    const monitor = new DeviceMonitor(
      (e) => events.push(e),
      hooks,
      () => ({ cellId: 'cell-7', warn: (text) => warnings.push(text) }),
    );
    monitor.start();
    state.lostListener?.({ device: 'gpu:0', reason: 'destroyed' });
    expect(events).toContainEqual({
      type: 'device-lost',
      device: 'gpu:0',
      reason: 'destroyed',
      cellId: 'cell-7',
      recovered: ['gpu:0'],
    });
    expect(warnings[0]).toContain('gpu:0 was lost while this cell ran (destroyed)');
    monitor.dispose();
    expect(state.lostListener).toBeNull();
  });
});
