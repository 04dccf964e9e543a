import { describe, expect, it } from 'vitest';
import { PEAK_ROUNDS, peakFlops, peakShader } from './peak-fma';

describe('FMA peak kernel', () => {
  it('unrolls its rounds: 8 vec4 FMAs each, counted in its flops', () => {
    for (const rounds of [1, 3, PEAK_ROUNDS]) {
      const shader = peakShader(rounds);
      expect(shader).not.toContain('/*ROUNDS*/');
      expect(shader.match(/= fma\(/g)?.length).toBe(8 * rounds);
      // 8 chains x 4 lanes x 2 flops per round, per invocation and iteration.
      expect(peakFlops(128, 5, rounds)).toBe(64 * rounds * 128 * 5);
    }
    expect(peakFlops(128, 5)).toBe(peakFlops(128, 5, PEAK_ROUNDS));
  });
});
