import { describe, expect, it } from 'vitest';
import {
  breakCreateResponse,
  breakCreated,
  breakListResponse,
  breakListed,
  createResponse,
  createdItem,
  listResponse,
  paginationBlock,
} from '../../src/contract/responses.ts';
import { z } from 'zod';
import { edit } from './support.ts';

const LISTED = {
  id: 5,
  start: '2026-07-01T12:00:00-05:00',
  end: '2026-07-01T12:30:00-05:00',
  break_rule_id: 2,
  duration_in_seconds: 1800,
  created_at: '2026-07-01T17:31:02',
  updated_at: '2026-07-01T17:31:02',
};
const CREATED = { ...edit(LISTED, { duration_in_seconds: undefined }), duration: 1800, timesheet_id: 10 };
const PAGINATION = {
  current_page: 1,
  first_page_url: 'https://api.example.com/api/public/breaks?page=1',
  from: 1,
  last_page: 3,
  last_page_url: 'https://api.example.com/api/public/breaks?page=3',
  next_page_url: 'https://api.example.com/api/public/breaks?page=2',
  path: 'https://api.example.com/api/public/breaks',
  per_page: 10,
  prev_page_url: null,
  to: 10,
  total: 25,
  options: false,
};

describe('breakListed (§2.4, list form)', () => {
  it('accepts a listed break, and extra fields', () => {
    expect(breakListed.safeParse(LISTED).success).toBe(true);
    expect(breakListed.safeParse({ ...LISTED, user_id: 7 }).success).toBe(true);
  });

  it.each(Object.keys(LISTED))('rejects a break without %s', (name) => {
    expect(breakListed.safeParse(edit(LISTED, { [name]: undefined })).success).toBe(false);
  });

  it.each([
    ['duration instead of duration_in_seconds', { duration_in_seconds: undefined, duration: 1800 }],
    ['start without offset', { start: '2026-07-01T12:00:00' }],
    ['end with Z', { end: '2026-07-01T17:30:00Z' }],
    ['created_at with an offset', { created_at: '2026-07-01T17:31:02+00:00' }],
    ['updated_at with fractional seconds', { updated_at: '2026-07-01T17:31:02.000' }],
    ['id a string', { id: '5' }],
    ['duration_in_seconds a fraction', { duration_in_seconds: 1800.5 }],
  ])('rejects %s', (_why, change) => {
    expect(breakListed.safeParse(edit(LISTED, change)).success).toBe(false);
  });
});

describe('breakCreated (§2.4, create form)', () => {
  it('accepts a created break with duration and timesheet_id', () => {
    expect(breakCreated.safeParse(CREATED).success).toBe(true);
  });

  it.each([
    ['duration_in_seconds instead of duration', { duration: undefined, duration_in_seconds: 1800 }],
    ['no timesheet_id', { timesheet_id: undefined }],
    ['timesheet_id a string', { timesheet_id: '10' }],
    ['no duration', { duration: undefined }],
    ['created_at with Z', { created_at: '2026-07-01T17:31:02Z' }],
  ])('rejects %s', (_why, change) => {
    expect(breakCreated.safeParse(edit(CREATED, change)).success).toBe(false);
  });

  it('is not satisfied by the list form', () => {
    expect(breakCreated.safeParse(LISTED).success).toBe(false);
  });
});

describe('createResponse (§4.4: items and message)', () => {
  it.each([
    ['an object', CREATED],
    ['a one-element array', [CREATED]],
  ])('accepts items as %s', (_why, items) => {
    const parsed = breakCreateResponse.safeParse({ items, message: 'Break added successfully' });
    expect(parsed.success).toBe(true);
    expect(createdItem(parsed.data!.items)).toEqual(CREATED);
  });

  it.each([
    ['items an empty array', { items: [], message: 'ok' }],
    ['items of two breaks', { items: [CREATED, CREATED], message: 'ok' }],
    ['items in the list form', { items: LISTED, message: 'ok' }],
    ['no items', { message: 'ok' }],
    ['no message', { items: CREATED }],
    ['a message that is not a string', { items: CREATED, message: true }],
  ])('rejects %s', (_why, body) => {
    expect(breakCreateResponse.safeParse(body).success).toBe(false);
  });

  it('wraps any item schema', () => {
    const schema = createResponse(z.object({ id: z.number() }));
    expect(schema.safeParse({ items: { id: 1 }, message: 'ok' }).success).toBe(true);
    expect(schema.safeParse({ items: { id: '1' }, message: 'ok' }).success).toBe(false);
  });
});

describe('paginationBlock (§2.5)', () => {
  it('accepts a full block', () => {
    expect(paginationBlock.safeParse(PAGINATION).success).toBe(true);
  });

  it.each(Object.keys(PAGINATION))('rejects a block without %s', (name) => {
    expect(paginationBlock.safeParse(edit(PAGINATION, { [name]: undefined })).success).toBe(false);
  });

  it.each([
    ['from and to null (an empty page)', { from: null, to: null, total: 0 }],
    ['next_page_url null (the last page)', { next_page_url: null, prev_page_url: PAGINATION.first_page_url }],
    ['next and prev null (the only page)', { next_page_url: null, prev_page_url: null }],
    ['options true', { options: true }],
  ])('accepts %s', (_why, change) => {
    expect(paginationBlock.safeParse(edit(PAGINATION, change)).success).toBe(true);
  });

  it.each([
    ['current_page a string', { current_page: '1' }],
    ['per_page a fraction', { per_page: 10.5 }],
    ['total null', { total: null }],
    ['last_page null', { last_page: null }],
    ['first_page_url null', { first_page_url: null }],
    ['last_page_url empty', { last_page_url: '' }],
    ['path null', { path: null }],
    ['next_page_url empty', { next_page_url: '' }],
    ['from a string', { from: '1' }],
    ['options a number', { options: 0 }],
  ])('rejects %s', (_why, change) => {
    expect(paginationBlock.safeParse(edit(PAGINATION, change)).success).toBe(false);
  });
});

describe('listResponse (§4.4, §2.5)', () => {
  it.each([
    ['a page of breaks', { meta_data: { pagination: PAGINATION }, items: [LISTED, { ...LISTED, id: 6 }] }],
    ['an empty page', { meta_data: { pagination: { ...PAGINATION, from: null, to: null } }, items: [] }],
  ])('accepts %s', (_why, body) => {
    expect(breakListResponse.safeParse(body).success).toBe(true);
  });

  it.each([
    ['no meta_data', { items: [LISTED] }],
    ['no pagination', { meta_data: {}, items: [LISTED] }],
    ['a pagination block without total', { meta_data: { pagination: edit(PAGINATION, { total: undefined }) }, items: [] }],
    ['items an object', { meta_data: { pagination: PAGINATION }, items: LISTED }],
    ['no items', { meta_data: { pagination: PAGINATION } }],
    ['an item in the create form', { meta_data: { pagination: PAGINATION }, items: [CREATED] }],
  ])('rejects %s', (_why, body) => {
    expect(breakListResponse.safeParse(body).success).toBe(false);
  });

  it('wraps any item schema', () => {
    const schema = listResponse(z.object({ id: z.number() }));
    expect(schema.safeParse({ meta_data: { pagination: PAGINATION }, items: [{ id: 1 }] }).success).toBe(true);
    expect(schema.safeParse({ meta_data: { pagination: PAGINATION }, items: [{}] }).success).toBe(false);
  });
});
