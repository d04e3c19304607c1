/** Resources whose records the spec does not show (§2.1, §2.2, §2.3, §2.6), as the reference server answers them. */
export type RecordKind = 'user' | 'schedule' | 'timesheet' | 'webhook';
