import { describe, expect, it } from 'vitest';
import { linkForm } from '../../src/checks/link-form.ts';

describe('linkForm', () => {
  it('says which sent parameters a link repeats, and whether it carries page alone', () => {
    expect(linkForm('https://t.test/api/public/users?page_size=7&page=2', { page_size: 7 })).toEqual({ missing: [], pageOnly: false });
    expect(linkForm('https://t.test/api/public/users?page=2', { page_size: 7, active: 1 })).toEqual({ missing: ['page_size=7', 'active=1'], pageOnly: true });
    expect(linkForm('https://t.test/api/public/users?page_size=100&page=2', { page_size: 7 })).toEqual({ missing: ['page_size=7'], pageOnly: false });
  });

  it('is null for a link that is not an absolute URL', () => {
    expect(linkForm('/api/public/users?page=2', {})).toBeNull();
  });
});
