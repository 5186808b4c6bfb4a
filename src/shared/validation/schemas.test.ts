import { describe, expect, it } from 'vitest';
import { validateForm } from './collect-errors.ts';
import { validationMessages } from './messages.ts';
import { customerSchema, deviceSchema, loginSchema, profileSchema, userSchema } from './schemas.ts';

async function errorsOf(schema: Parameters<typeof validateForm>[0], values: Record<string, unknown>) {
  const result = await validateForm(schema, values);
  return result.ok ? {} : result.errors;
}

describe('login schema', () => {
  it('requires email and password', async () => {
    expect(await errorsOf(loginSchema, {})).toEqual({
      email: ['validation.login.email.required'],
      password: ['validation.login.password.required'],
    });
  });
  it('rejects a malformed email', async () => {
    expect(await errorsOf(loginSchema, { email: 'nope', password: 'x' })).toEqual({
      email: ['validation.login.email.invalid'],
    });
  });
  it('trims the email', async () => {
    const result = await validateForm(loginSchema, { email: '  a@b.it ', password: 'x' });
    expect(result).toEqual({ ok: true, value: { email: 'a@b.it', password: 'x' } });
  });
  it('judges a value whose keys name Object.prototype members instead of throwing', async () => {
    const values = { email: 'nope', password: 'x', constructor: 'c', toString: 't', hasOwnProperty: 'h' };
    expect(await errorsOf(loginSchema, values)).toEqual({ email: ['validation.login.email.invalid'] });
  });
  it('has the product texts for its ids', () => {
    expect(validationMessages['validation.login.email.required']).toBe('Email address is mandatory');
    expect(validationMessages['validation.login.email.invalid']).toBe('Email address is not valid');
    expect(validationMessages['validation.login.password.required']).toBe('Password is mandatory');
  });
});

describe('profile schema', () => {
  const current = 'ann@example.com';
  const valid = {
    name: 'Ann',
    email: current,
    current_password: 'the-old-one',
    new_password: 'longenough',
    repeat_new_password: 'longenough',
  };

  it('accepts a valid profile, and a name change alone without any password', async () => {
    expect(await errorsOf(profileSchema(current), valid)).toEqual({});
    expect(await errorsOf(profileSchema(current), { name: 'Annie', email: current })).toEqual({});
  });

  it('requires name and email', async () => {
    expect(await errorsOf(profileSchema(current), { name: '  ' })).toEqual({
      name: ['validation.profile.name.required'],
      email: ['validation.profile.email.required'],
    });
  });

  it('asks for the current password to change the password or the email', async () => {
    const { current_password: _current, ...withoutCurrent } = valid;
    expect(await errorsOf(profileSchema(current), withoutCurrent)).toEqual({
      current_password: ['validation.profile.current_password.required'],
    });
    expect(await errorsOf(profileSchema(current), { name: 'Ann', email: 'other@example.com' })).toEqual({
      current_password: ['validation.profile.current_password.required'],
    });
    // The same address in another case is no change.
    expect(await errorsOf(profileSchema(current), { name: 'Ann', email: 'ANN@example.com' })).toEqual({});
  });

  it('rejects an invalid email, a short password and a mismatch', async () => {
    expect(await errorsOf(profileSchema(current), { ...valid, email: 'x@' })).toEqual({
      email: ['validation.profile.email.required'],
    });
    expect(
      await errorsOf(profileSchema(current), {
        ...valid,
        new_password: 'short',
        repeat_new_password: 'short',
      }),
    ).toEqual({
      new_password: ['validation.profile.password.short'],
    });
    expect(await errorsOf(profileSchema(current), { ...valid, repeat_new_password: 'different1' })).toEqual({
      new_password: ['validation.profile.password.mismatch'],
      repeat_new_password: ['validation.profile.repeat.required'],
    });
    expect(await errorsOf(profileSchema(current), { ...valid, repeat_new_password: '' })).toEqual({
      new_password: ['validation.profile.password.mismatch'],
      repeat_new_password: ['validation.profile.repeat.required'],
    });
  });

  it('has the product texts for its ids', () => {
    expect(validationMessages['validation.profile.name.required']).toBe('user name is required');
    expect(validationMessages['validation.profile.email.required']).toBe('email is mandatory');
    expect(validationMessages['validation.profile.password.short']).toBe('password is too short');
    expect(validationMessages['validation.profile.password.mismatch']).toBe('password must match');
    expect(validationMessages['validation.profile.repeat.required']).toBe(
      'password confirmation is mandatory',
    );
  });
});

describe('password rules (docs/accounts.md §1)', () => {
  const profile = (password: string, owner = { name: 'Ann Smith', email: 'ann.smith@example.com' }) =>
    errorsOf(profileSchema(owner.email), {
      ...owner,
      current_password: 'x',
      new_password: password,
      repeat_new_password: password,
    });
  const user = (password: string) =>
    errorsOf(userSchema(true), {
      name: 'Bo Rossi',
      email: 'bo@example.com',
      new_password: password,
      repeat_new_password: password,
    });

  it('takes 8 to 128 characters of any kind, counted as characters', async () => {
    expect(await profile('1234567')).toEqual({ new_password: ['validation.profile.password.short'] });
    expect(await profile('seven-7')).toEqual({ new_password: ['validation.profile.password.short'] });
    expect(await profile('x'.repeat(128))).toEqual({});
    expect(await profile('x'.repeat(129))).toEqual({ new_password: ['validation.password.too_long'] });
    // Four emoji are four characters, not eight: too short. 128 of them are allowed.
    expect(await profile('\u{1F510}'.repeat(4))).toEqual({
      new_password: ['validation.profile.password.short'],
    });
    expect(await profile('\u{1F510}'.repeat(128))).toEqual({});
    for (const password of [
      '  spaced out  ',
      'ünïcödé pässwörd',
      'tab\tand \u00a0nbsp',
      '日本語のパスワードです',
    ])
      expect([password, await profile(password)]).toEqual([password, {}]);
  });

  it('refuses the most common and breached passwords, in any case', async () => {
    for (const password of [
      'password123',
      'Password123',
      'PASSWORD123',
      'qwertyuiop',
      'iloveyou1',
      '12345678',
    ])
      expect([password, await profile(password)]).toEqual([
        password,
        { new_password: ['validation.password.common'] },
      ]);
    expect(await user('password123')).toEqual({ new_password: ['validation.password.common'] });
  });

  it("refuses a password holding the user's email address, or equal to their name", async () => {
    expect(await profile('my ann.smith@example.com!')).toEqual({
      new_password: ['validation.password.contains_email'],
    });
    expect(await profile('ANN.SMITH@EXAMPLE.COM')).toEqual({
      new_password: ['validation.password.contains_email'],
    });
    expect(await profile('ann smith')).toEqual({ new_password: ['validation.password.equals_name'] });
    // The name inside a longer password is allowed: only equality is refused.
    expect(await profile('ann smith rides a bike')).toEqual({});
    expect(await user('bo@example.com-2024')).toEqual({
      new_password: ['validation.password.contains_email'],
    });
    expect(await user('Bo Rossi')).toEqual({ new_password: ['validation.password.equals_name'] });
  });

  it('has a text for every rule', () => {
    expect(validationMessages['validation.password.common']).toBe(
      'This password is too common: choose another one',
    );
    expect(validationMessages['validation.password.too_long']).toMatch(/128/);
    expect(validationMessages['validation.password.contains_email']).toMatch(/e-mail/);
    expect(validationMessages['validation.password.equals_name']).toMatch(/name/);
  });
});

describe('customer, user and device schemas', () => {
  it('checks customer name and country', async () => {
    expect(await errorsOf(customerSchema, { country: 'ITA', email: 'bad' })).toEqual({
      name: ['validation.customer.name.required'],
      country: ['validation.customer.country.required'],
      email: ['validation.customer.email.invalid'],
    });
  });
  it('requires a password only for a new user', async () => {
    const user = { name: 'Bo', email: 'bo@example.com' };
    expect(await errorsOf(userSchema(true), user)).toEqual({
      new_password: ['validation.user.password.required'],
    });
    expect(await errorsOf(userSchema(false), user)).toEqual({});
    expect(
      await errorsOf(userSchema(false), { ...user, new_password: 'abcdefgh', repeat_new_password: 'x' }),
    ).toEqual({
      repeat_new_password: ['validation.user.password.mismatch'],
    });
  });
  it('wants an 8-character serial', async () => {
    expect(await errorsOf(deviceSchema, { device_serial: 'ABC', label: 'x', product_id: '1' })).toEqual({
      device_serial: ['validation.device.serial.length'],
    });
  });
  it('counts a serial in characters, as the database does, not in UTF-16 units', async () => {
    const device = (serial: string) => ({ device_serial: serial, label: 'x', product_id: '1' });
    expect(await errorsOf(deviceSchema, device('\u{1F600}'.repeat(4)))).toEqual({
      device_serial: ['validation.device.serial.length', 'validation.device.serial.characters'],
    });
    expect(await errorsOf(deviceSchema, device('\u{1F600}'.repeat(8)))).toEqual({
      device_serial: ['validation.device.serial.characters'],
    });
  });
  it('wants a serial of letters, digits, - and _ only: no space, control character or markup', async () => {
    const device = (serial: string) => ({ device_serial: serial, label: 'x', product_id: '1' });
    for (const serial of ['A\r\nBcc:x', '<b>X</b>', 'AB CD EF', 'ABC.DEF1', 'ÀBCDEFGH', 'AB\tCDEFG'])
      expect([serial, await errorsOf(deviceSchema, device(serial))]).toEqual([
        serial,
        { device_serial: ['validation.device.serial.characters'] },
      ]);
    for (const serial of ['NP000201', 'ab-cd_EF', 'E2E12345'])
      expect(await errorsOf(deviceSchema, device(serial))).toEqual({});
  });
});

describe('names', () => {
  const CONTROL = [
    'A\r\nBcc: x',
    'Line\nbreak',
    'Tab\there',
    'Nul\u0000',
    'Esc\u001b[31m',
    'Del\u007f',
    'C1\u0085',
    'Sep\u2028x',
  ];
  const named = [
    ['customer', customerSchema, { country: 'IT' }, 'name'],
    ['user', userSchema(false), { email: 'bo@example.com' }, 'name'],
    ['profile', profileSchema('ann@example.com'), { email: 'ann@example.com' }, 'name'],
    ['device', deviceSchema, { device_serial: 'NP000201', product_id: '1' }, 'label'],
  ] as const;

  it('refuse control characters in customer, user, profile and device names', async () => {
    for (const [what, schema, rest, field] of named) {
      for (const name of CONTROL)
        expect([what, name, await errorsOf(schema, { ...rest, [field]: name })]).toEqual([
          what,
          name,
          { [field]: ['validation.name.control_characters'] },
        ]);
      expect([
        what,
        await errorsOf(schema, { ...rest, [field]: 'Clinica <b>San</b> Marco — Ferrè' }),
      ]).toEqual([what, {}]);
    }
  });

  it('trim line breaks at either end away rather than refuse them', async () => {
    const result = await validateForm(customerSchema, { name: ' Clinica San Marco\r\n', country: 'IT' });
    expect(result).toMatchObject({ ok: true, value: { name: 'Clinica San Marco' } });
  });
});
