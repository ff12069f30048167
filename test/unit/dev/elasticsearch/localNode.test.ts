import { describe, expect, it } from 'vitest';
import { chooseDistribution, findJdks } from '../../../../dev/elasticsearch/localNode.js';

describe('chooseDistribution', () => {
  it('takes the newest Elasticsearch the newest JDK can run', () => {
    expect(
      chooseDistribution([
        { home: '/jdk25', major: 25 },
        { home: '/jdk17', major: 17 },
      ]),
    ).toEqual({
      version: '9.5.0',
      jdk: { home: '/jdk25', major: 25 },
    });
  });

  it('falls back to 8.19 on a machine with Java 17 only', () => {
    expect(chooseDistribution([{ home: '/jdk17', major: 17 }]).version).toBe('8.19.0');
  });

  it('explains what it found when no JDK fits', () => {
    expect(() => chooseDistribution([{ home: '/jdk11', major: 11 }])).toThrow(/jdk11 \(11\)/);
  });

  it('honours a forced version', () => {
    expect(chooseDistribution([{ home: '/jdk25', major: 25 }], '9.2.0').version).toBe('9.2.0');
  });
});

describe('findJdks', () => {
  it('finds the JDKs installed on this machine, newest first', () => {
    const jdks = findJdks();
    expect(jdks.length).toBeGreaterThan(0);
    expect([...jdks].sort((a, b) => b.major - a.major)).toEqual(jdks);
  });
});
