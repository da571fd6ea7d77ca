import Bowser from 'bowser';

/**
 * A session's browser and system in words ("Firefox on Windows", "Safari on
 * iPhone") instead of its raw user agent. Bowser is imported here only, and
 * only the team screen (a lazy chunk) imports this: the first visit's
 * script does not carry it (docs/dashboard.md#the-team-screen).
 */

const SYSTEM_WORDS: Record<string, string> = {
  'Chrome OS': 'ChromeOS',
  iOS: 'iOS',
};

export function deviceWords(userAgent: string | null): string {
  if (!userAgent?.trim()) return 'An unnamed browser or program';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name || 'An unnamed browser or program';
  const model = parsed.platform.model;
  const system =
    parsed.os.name === 'iOS' && (model === 'iPhone' || model === 'iPad' || model === 'iPod')
      ? model
      : parsed.os.name && (SYSTEM_WORDS[parsed.os.name] ?? parsed.os.name);
  return system ? `${browser} on ${system}` : browser;
}
