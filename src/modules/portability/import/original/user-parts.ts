import { createHash } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import { ID_PATTERN } from '../../../../common/ids';
import { validateStrict } from '../../../../common/validation/strict-validation';
import { formatValidationErrors } from '../../../../common/validation/validation.pipe';
import { ResultFiltersDto } from '../../../users/dto/result-filters.dto';
import { themeColorsProblem } from '../../../users/theme-colors';
import { labelProblem } from '../../../users/user-name';
import type { FilterPresetRow, MailRow, TagRecord, ThemeRow } from '../import-records';
import type { Notes } from '../mapped';
import { mapPersonalBests } from './personal-bests';
import { bool, idText, int, isPlainObject, millis, num, objectIdTime, text } from './values';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

/** An entity id we can serve: the original's ObjectId hex (kept), or its text id when it fits our id pattern. */
export function entityId(value: unknown): string | undefined {
  const id = idText(value);
  return id !== undefined && ID_PATTERN.test(id) ? id : undefined;
}

/**
 * A tag or theme name under our rule (words joined by single `_` or `-`, 1-16 long). Older versions of the original
 * allowed other characters: those become `_`, so the tag and its results stay together.
 */
export function label(value: unknown, fallback: string): string {
  const raw = text(value) ?? '';
  if (labelProblem(raw) === null) return raw;
  const cleaned = raw
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 16)
    .replace(/_+$/, '');
  return labelProblem(cleaned) === null ? cleaned : fallback;
}

function list(raw: unknown, path: string, notes: Notes): unknown[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw;
  notes.leftOut(path, 'not a list', raw);
  return [];
}

/** `tags[] { _id, name, personalBests }`: ids are kept, so results keep pointing at their tags. */
export function mapTags(raw: unknown, createdFallback: number, notes: Notes): TagRecord[] {
  const seen = new Set<string>();
  const tags: TagRecord[] = [];
  list(raw, 'tags', notes).forEach((tag, i) => {
    const path = `tags[${i}]`;
    if (!isPlainObject(tag)) return notes.leftOut(path, 'not a tag', tag);
    const id = entityId(tag._id);
    if (id === undefined || seen.has(id)) return notes.leftOut(path, 'no usable or a repeated _id', tag);
    seen.add(id);
    const name = label(tag.name, `tag_${tags.length + 1}`);
    if (name !== tag.name) notes.changed(`${path}.name`, `renamed to ${name} (our tag name rule)`, tag.name);
    const bests = mapPersonalBests(tag.personalBests, `${path}.personalBests`, notes);
    tags.push({
      id,
      name,
      created_at: objectIdTime(tag._id) ?? createdFallback,
      personalBests: [...bests.values()],
    });
  });
  return tags;
}

/**
 * `customThemes[] { _id, name, colors }`. Themes saved before the original added its `subAlt` colour hold 9 colours;
 * the original's client inserts `#000000` at position 4 for them, and so does this.
 */
export function mapThemes(raw: unknown, createdFallback: number, notes: Notes): ThemeRow[] {
  const themes: ThemeRow[] = [];
  const seen = new Set<string>();
  list(raw, 'customThemes', notes).forEach((theme, i) => {
    const path = `customThemes[${i}]`;
    if (!isPlainObject(theme)) return notes.leftOut(path, 'not a theme', theme);
    const id = entityId(theme._id);
    if (id === undefined || seen.has(id)) return notes.leftOut(path, 'no usable or a repeated _id', theme);
    let colors = theme.colors;
    if (Array.isArray(colors) && colors.length === 9) {
      colors = [...colors.slice(0, 4), '#000000', ...colors.slice(4)];
      notes.changed(`${path}.colors`, 'nine colours: subAlt #000000 inserted, as the original client does');
    }
    const problem = themeColorsProblem(colors);
    if (problem !== null) return notes.leftOut(path, `colours ${problem}`, theme);
    seen.add(id);
    const name = label(theme.name, `theme_${themes.length + 1}`);
    if (name !== theme.name)
      notes.changed(`${path}.name`, `renamed to ${name} (our theme name rule)`, theme.name);
    themes.push({
      id,
      name,
      colors: colors as string[],
      created_at: objectIdTime(theme._id) ?? createdFallback + i,
    });
  });
  return themes;
}

/** A mail id: the original's UUID, or (older or odd ids) a UUID derived from the user and that id, so reruns agree. */
function mailId(uid: string, raw: unknown, index: number): string {
  const id = idText(raw);
  if (id !== undefined && UUID.test(id)) return id.toLowerCase();
  const hex = createHash('sha256')
    .update(`${uid}\u0000${id ?? `#${index}`}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function reward(raw: unknown): MailRow['rewards'][number] | undefined {
  if (!isPlainObject(raw)) return undefined;
  if (raw.type === 'xp') {
    const xp = int(raw.item, Number.MIN_SAFE_INTEGER);
    return xp === undefined ? undefined : { type: 'xp', item: xp };
  }
  if (raw.type === 'badge' && isPlainObject(raw.item)) {
    const id = int(raw.item.id);
    return id === undefined ? undefined : { type: 'badge', item: { id } };
  }
  return undefined;
}

/** `inbox[] { id, subject, body, timestamp, read, rewards }`. */
export function mapInbox(uid: string, raw: unknown, notes: Notes): MailRow[] {
  const mail: MailRow[] = [];
  const seen = new Set<string>();
  list(raw, 'inbox', notes).forEach((item, i) => {
    const path = `inbox[${i}]`;
    if (!isPlainObject(item)) return notes.leftOut(path, 'not a mail', item);
    const subject = text(item.subject);
    const body = text(item.body);
    const timestamp = millis(item.timestamp);
    if (subject === undefined || body === undefined || timestamp === undefined)
      return notes.leftOut(path, 'no subject, body or timestamp', item);
    const id = mailId(uid, item.id, i);
    if (seen.has(id)) return notes.leftOut(path, 'repeated id', item);
    seen.add(id);
    const rewards = list(item.rewards, `${path}.rewards`, notes).flatMap((r, j) => {
      const mapped = reward(r);
      if (mapped === undefined) notes.leftOut(`${path}.rewards[${j}]`, 'unknown reward', r);
      return mapped === undefined ? [] : [mapped];
    });
    mail.push({ id, subject, body, rewards, timestamp, read: bool(item.read) ?? false });
  });
  return mail;
}

/** `resultFilterPresets[]`: each validated with the rules `POST /users/resultFilterPresets` applies. */
export function mapFilterPresets(raw: unknown, createdFallback: number, notes: Notes): FilterPresetRow[] {
  const presets: FilterPresetRow[] = [];
  list(raw, 'resultFilterPresets', notes).forEach((item, i) => {
    const path = `resultFilterPresets[${i}]`;
    if (!isPlainObject(item)) return notes.leftOut(path, 'not a filter preset', item);
    const id = entityId(item._id);
    if (id === undefined) return notes.leftOut(path, 'no usable _id', item);
    const errors = validateStrict(plainToInstance(ResultFiltersDto, { ...item, _id: id }));
    if (errors.length > 0) return notes.leftOut(path, formatValidationErrors(errors).join('; '), item);
    const filters = Object.fromEntries(Object.entries(item).filter(([k]) => k !== '_id' && k !== 'name'));
    presets.push({
      id,
      name: item.name as string,
      filters,
      created_at: objectIdTime(item._id) ?? createdFallback,
    });
  });
  return presets;
}

/**
 * `testActivity { <year>: number[] }`, where index i is the (i+1)-th UTC day of that year and null a day without
 * tests. Absent (accounts the original's migration never reached): null, so the writer counts it from the results.
 */
export function mapTestActivity(raw: unknown, notes: Notes): { day: number; tests: number }[] | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) {
    notes.leftOut('testActivity', 'not an object', raw);
    return null;
  }
  const days: { day: number; tests: number }[] = [];
  for (const [year, counts] of Object.entries(raw)) {
    const y = Number(year);
    if (!/^\d{4}$/.test(year) || !Array.isArray(counts)) {
      notes.leftOut(`testActivity.${year}`, 'not a year of daily counts', counts);
      continue;
    }
    const first = Date.UTC(y, 0, 1) / DAY_MS;
    counts.slice(0, 366).forEach((count, i) => {
      const tests = int(count);
      if (tests !== undefined && tests > 0) days.push({ day: first + i, tests });
    });
  }
  return days;
}

/** A streak hour offset the original allows (-11..12 in half hours), or null. */
export function hourOffset(value: unknown): number | null {
  const n = num(value);
  return n !== undefined && n >= -11 && n <= 12 && Number.isInteger(n * 2) ? n : null;
}
