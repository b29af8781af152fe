/** Whether the runtime knows the IANA time zone (env.ts checks DISPLAY_TIME_ZONE with it). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * LastActivationDate: `dd.MM.yyyy HH:mm:ss` (24-hour) in the deployment's display time zone.
 * Built from formatToParts so no locale's separators or ordering leak in.
 */
export function displayDateFormatter(timeZone: string): (at: Date | string) => string {
  const fmt = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (at) => {
    const date = typeof at === 'string' ? new Date(at) : at;
    if (Number.isNaN(date.getTime())) throw new Error(`not a date: ${String(at)}`);
    const p = Object.fromEntries(fmt.formatToParts(date).map((part) => [part.type, part.value]));
    return `${p.day}.${p.month}.${p.year!.padStart(4, '0')} ${p.hour}:${p.minute}:${p.second}`;
  };
}
