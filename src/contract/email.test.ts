import { describe, expect, it } from 'vitest';
import { isEmail } from './email.js';
import { validateRecord } from './validators.js';

describe('isEmail (RFC 5321 Mailbox)', () => {
  it.each([
    'a@b.co',
    'first.last+tag@example.com',
    "o'brien!#$%&*/=?^_`{|}~-@x.io",
    'user@localhost',
    'USER@EXAMPLE.COM',
    '"quoted name"@example.com',
    '"a@b"@example.com',
    '"back\\"slash"@example.com',
    'user@[192.168.0.1]',
    'user@[IPv6:2001:db8::1]',
    'user@[tag:a@b]',
    'x@sub-domain.example.co.uk',
    'x@123.example',
  ])('accepts %s', (value) => {
    expect(isEmail(value)).toBe(true);
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'user@',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    'a b@example.com',
    '"unclosed@example.com',
    'user@-example.com',
    'user@example-.com',
    'user@example..com',
    'user@example.com.',
    'user@[256.0.0.1]',
    'user@[1.2.3]',
    'user@[IPv6:zz::1]',
    'user@[tag:a[b]',
    'üser@exämple.com',
    'user@exa_mple.com',
  ])('refuses %s', (value) => {
    expect(isEmail(value)).toBe(false);
  });
});

describe('records with email fields', () => {
  const company = (email: string) => ({
    id: '5a0c3e1f-7b2d-4c6e-9f8a-1b2c3d4e5f60',
    cmsProjectId: 'p',
    type: 'Company',
    beneficiaries: { individualBeneficiaries: [{ email }] },
  });

  it('accepts a beneficiary mailbox without a dot in its domain, quoted or with an address literal', () => {
    for (const email of ['user@localhost', '"quoted name"@example.com', 'user@[192.168.0.1]']) {
      expect(validateRecord('customer', company(email)).ok).toBe(true);
    }
  });

  it('refuses a beneficiary email that is no mailbox, naming its path', () => {
    const result = validateRecord('customer', company('not-an-email'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]).toMatchObject({ path: '/beneficiaries/individualBeneficiaries/0/email', message: 'must be an email address' });
  });
});
