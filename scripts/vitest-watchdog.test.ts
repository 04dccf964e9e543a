import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { VitestWatchdog } from './vitest-watchdog';

/** Just the fields the watchdog reads. */
const module = (moduleId: string) => ({ moduleId }) as TestModule;
const testCase = (moduleId: string, fullName: string) =>
  ({ module: module(moduleId), fullName }) as TestCase;

describe('VitestWatchdog', () => {
  it('stays quiet while events arrive and names the blocked file and case after the silence', () => {
    let clock = 0;
    const reports: string[] = [];
    const dog = new VitestWatchdog({
      stallMs: 1000,
      checkEveryMs: 1e9,
      now: () => clock,
      onStall: (report) => reports.push(report),
    });
    dog.onTestRunStart();
    dog.onTestModuleStart(module('/a.test.ts'));
    dog.onTestCaseReady(testCase('/a.test.ts', 'suite > fast'));
    clock = 900;
    dog.onTestCaseResult();
    dog.onTestModuleEnd(module('/a.test.ts'));
    dog.onTestModuleStart(module('/b.test.ts'));
    clock = 1700;
    dog.onTestCaseReady(testCase('/b.test.ts', 'loops > while True'));
    clock = 2600;
    dog.check();
    expect(reports).toEqual([]);
    clock = 2701;
    dog.check();
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('for 1 s');
    expect(reports[0]).toContain('Running: /b.test.ts.');
    expect(reports[0]).not.toContain('/a.test.ts');
    expect(reports[0]).toContain('Last test case that started: /b.test.ts > loops > while True.');
    dog.onTestRunEnd();
  });
});
