const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an ISO 8601 date or date-time to the canonical UTC form
 * (`2026-03-01T10:00:00.000Z`). A value without a zone is read as UTC, as
 * the spec's examples are written; JavaScript alone would read it as local
 * time. Returns null for anything else.
 */
export function parseTimestamp(value: string): string | null {
  const match = ISO_8601.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  const normalized = `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone ? normalizeZone(zone) : 'Z'}`;
  const parsed = Date.parse(normalized);
  if (Number.isNaN(parsed)) return null;
  // Date.parse rolls 2026-02-30 over to March; a real calendar date must survive the round trip.
  if (!zone && new Date(parsed).toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return null;
  return new Date(parsed).toISOString();
}

const normalizeZone = (zone: string) =>
  zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
