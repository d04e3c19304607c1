import { describe, expect, it } from 'vitest';
import { AUTO_READING, type RecordReading } from '../../src/records/record-reading.ts';
import { createdFields, differences, editedFields, show, shownCount, type StoredKind, type WrittenRecord } from '../../src/records/written-record.ts';

const record = (kind: StoredKind, fields: WrittenRecord['fields']): WrittenRecord => ({ kind, id: '7', fields, writtenBy: [] });
const created = (kind: StoredKind, body: Record<string, unknown>) => record(kind, createdFields(kind, body));
const rules = (written: WrittenRecord, read: unknown, reading: RecordReading = AUTO_READING) => differences(written, read, reading).map((d) => `${d.rule}@${d.field}`);

describe('createdFields', () => {
  it('keeps what a user create sent, never the password, and the §2.2 defaults of what it left out', () => {
    const fields = createdFields('user', { first_name: 'Zoë', email: 'z@example.test', password: 'Valid-pass1', role_id: 2, timesheet_option: true });
    expect([...fields.keys()].sort()).toEqual(['billing_rate_type', 'email', 'first_name', 'pay_rate', 'role_id', 'track_location', 'track_mileage']);
    expect(fields.get('role_id')).toEqual({ value: 2, by: 'create' });
    expect(fields.get('pay_rate')).toEqual({ value: 0, by: 'default', defaultRule: 'USR-PAY-RATE-DEFAULT' });
  });

  it('does not judge a timezone written as null (it takes the company default, which the run may not know), but judges an end written as null', () => {
    const fields = createdFields('timesheet', { user_id: 3, start: '2026-01-05T09:00:00-06:00', end: null, clock_in_timezone: null, clock_out_timezone: null });
    expect([...fields.keys()].sort()).toEqual(['end', 'start', 'user_id']);
  });
});

describe('differences', () => {
  it('passes a record read with the values written, in other representations of the same meaning', () => {
    const user = created('user', { first_name: 'Rene\u0301e', last_name: '李小龍', email: 'r@example.test', pay_rate: 15, track_location: true, role_id: 2 });
    expect(rules(user, { id: 7, first_name: 'Rene\u0301e', last_name: '李小龍', email: 'r@example.test', pay_rate: '15.00', track_location: 1, track_mileage: 0, role_id: '2', billing_rate_type: 0, extra: 'a field of its own' })).toEqual([]);
  });

  it('reads camelCase records where the reading allows them', () => {
    const user = created('user', { first_name: 'Zoë', email: 'z@example.test' });
    expect(rules(user, { firstName: 'Zoe', email: 'z@example.test' }, { fields: 'camel' })).toEqual(['STORE-TEXT@first_name']);
  });

  it('compares text byte for byte: a composed letter, a lost emoji, an escaped apostrophe and digits-only phone are each STORE-TEXT', () => {
    expect(rules(created('user', { first_name: 'Rene\u0301e' }), { first_name: 'Ren\u00e9e' })).toEqual(['STORE-TEXT@first_name']);
    expect(rules(created('user', { last_name: 'Zoë 🕒' }), { last_name: 'Zoë ?' })).toEqual(['STORE-TEXT@last_name']);
    expect(rules(created('user', { last_name: "O'Brien" }), { last_name: 'O&#039;Brien' })).toEqual(['STORE-TEXT@last_name']);
    expect(rules(created('user', { phone: '555-0100' }), { phone: '5550100' })).toEqual(['STORE-TEXT@phone']);
    // A number is no text, even one that reads the same.
    expect(rules(created('user', { company_employee_id: '0123' }), { company_employee_id: 123 })).toEqual(['STORE-TEXT@company_employee_id']);
  });

  it('compares numbers by value: a decimal rounded is STORE-NUMBER, a decimal string of the same value passes', () => {
    expect(rules(created('timesheet', { mileage: 12.75 }), { mileage: 13 })).toEqual(['STORE-NUMBER@mileage']);
    expect(rules(created('timesheet', { mileage: 12.75 }), { mileage: '12.750' })).toEqual([]);
    expect(rules(created('user', { pay_rate: 25 }), { pay_rate: 24 })).toEqual(['STORE-NUMBER@pay_rate']);
  });

  it('compares datetimes as instants: another offset of the same instant passes, another instant is STORE-DATETIME', () => {
    const sheet = created('timesheet', { start: '2026-01-05T09:00:00+05:30', end: '2026-01-05T10:00:00+05:30' });
    expect(rules(sheet, { start: '2026-01-05T03:30:00Z', end: '2026-01-04T22:30:00-06:00' })).toEqual([]);
    expect(rules(sheet, { start: '2026-01-05T09:00:00-06:00', end: '2026-01-05T10:00:00+05:30' })).toEqual(['STORE-DATETIME@start']);
    // Shown without an offset: no instant to compare (the record is not shown by the spec), not judged.
    expect(rules(sheet, { start: '2026-01-05 09:00:00' })).toEqual([]);
  });

  it('names a changed name or code STORE-CREATE, a default not applied its own rule, a null made a value STORE-CREATE', () => {
    expect(rules(created('timesheet', { clock_in_timezone: 'America/Chicago', clock_out_timezone: 'Europe/London' }), { clock_out_timezone: 'America/Chicago' })).toEqual(['STORE-CREATE@clock_out_timezone']);
    expect(rules(created('user', { track_mileage: true }), { track_mileage: false })).toEqual(['STORE-CREATE@track_mileage']);
    expect(rules(created('user', {}), { role_id: 1 })).toEqual(['USR-ROLE-ID-DEFAULT@role_id']);
    expect(rules(created('timesheet', { end: null }), { end: '2026-01-05T09:00:00-06:00' })).toEqual(['STORE-CREATE@end']);
  });

  it('does not judge a field the read does not show, and counts those it does', () => {
    const user = created('user', { first_name: 'Ada', phone: '555-0100' });
    expect(rules(user, { first_name: 'Ada' })).toEqual([]);
    expect(shownCount(user.fields, { first_name: 'Ada', role_id: 3 }, AUTO_READING)).toBe(2);
  });
});

describe('editedFields', () => {
  it('keeps what an edit did not send (PUT is partial) and names an edit read back as it was before STORE-EDIT, whichever earlier state it shows', () => {
    const first = createdFields('user', { first_name: 'Ada', email: 'a@example.test', pay_rate: 10 });
    const once = editedFields('user', first, { pay_rate: 20, phone: '555-0100' });
    const twice = editedFields('user', once, { pay_rate: 30 });
    const edited = record('user', twice);
    expect(twice.get('first_name')).toEqual({ value: 'Ada', by: 'create' });
    expect(rules(edited, { first_name: 'Ada', pay_rate: 30, phone: '555-0100' })).toEqual([]);
    expect(rules(edited, { pay_rate: 20 })).toEqual(['STORE-EDIT@pay_rate']);
    expect(rules(edited, { pay_rate: 10 })).toEqual(['STORE-EDIT@pay_rate']);
    // A field no write named before reads back null: the edit that wrote it was not stored.
    expect(rules(edited, { phone: null })).toEqual(['STORE-EDIT@phone']);
    // Another value than any it held: the number changed.
    expect(rules(edited, { pay_rate: 31 })).toEqual(['STORE-NUMBER@pay_rate']);
  });

  it('of a user the run did not create, knows only what the edit wrote', () => {
    const fields = editedFields('user', undefined, { role_id: 2 });
    expect([...fields.entries()]).toEqual([['role_id', { value: 2, by: 'edit' }]]);
    expect(rules(record('user', fields), { role_id: 3 })).toEqual(['STORE-EDIT@role_id']);
  });
});

describe('show', () => {
  it('writes a value as JSON with every character outside printable ASCII escaped, so a changed one shows', () => {
    expect(show('Rene\u0301e 🕒')).toBe('"Rene\\u{301}e \\u{1f552}"');
    expect(show(undefined)).toBe('absent');
    expect(show(12.75)).toBe('12.75');
  });
});
