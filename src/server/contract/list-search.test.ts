/**
 * The lists' free-text search `q`, the same cases on every list: a case-insensitive
 * substring of the searched fields, Unicode included; `%`, `_` and `\` taken literally; surrounding
 * spaces ignored; over 100 characters refused; the lists' role rules unchanged. The customer page's
 * unpaged users and devices lists search the same way, within the one customer and its tenant rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerIdOf, makeCustomer, productId, unique } from '../test/fixtures.ts';
import { expectContract } from '../test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '../test/test-app.ts';

let t: TestApp;
const tokens: Record<string, string> = {};

let serial = 0;
const next = () => {
  serial += 1;
  return serial;
};

interface SearchedList {
  operation: string;
  path: string;
  /** A row whose main searched field holds `text` (its other searched fields hold nothing searched for). */
  make(text: string): Promise<number>;
  /** A row found only through the list's other searched field, with a query that finds it. */
  makeByOtherField?(token: string): Promise<{ id: number; q: string }>;
  /** Roles the list refuses (403), search or not. */
  refused: string[];
}

async function insertId(text: string, values: unknown[]): Promise<number> {
  const result = await t.database.pool.query(text, values);
  return Number(result.rows[0].id);
}

let customerId = 0;

const LISTS: SearchedList[] = [
  {
    operation: 'listCustomers',
    path: '/api/v1/customers',
    make: (text) => makeCustomer(t, { name: text }),
    async makeByOtherField(token) {
      const id = await insertId(
        `insert into customers (name, city, country) values ($1, $2, 'IT') returning id`,
        [`Search clinic ${next()}`, `Città ${token}`],
      );
      return { id, q: `cittÀ ${token.toLowerCase()}` };
    },
    refused: [DEMO.customer],
  },
  {
    operation: 'listUsers',
    path: '/api/v1/users',
    make: (text) =>
      insertId(
        `insert into users (customer_id, name, email, password_hash, role) values ($1, $2, $3, 'x', 'CUSTOMER') returning id`,
        [customerId, text, `search-${next()}@example.com`],
      ),
    async makeByOtherField(token) {
      const id = await insertId(
        `insert into users (customer_id, name, email, password_hash, role) values ($1, $2, $3, 'x', 'CUSTOMER') returning id`,
        [customerId, `Search user ${next()}`, `${token.toLowerCase()}@search.example`],
      );
      return { id, q: `${token}@SEARCH` };
    },
    refused: [DEMO.customer],
  },
  {
    operation: 'listDevices',
    path: '/api/v1/devices',
    make: async (text) =>
      insertId(
        `insert into devices (customer_id, product_id, device_serial, label) values ($1, $2, $3, $4) returning id`,
        [customerId, await productId(t), `Q${unique()}Q`, text],
      ),
    async makeByOtherField(token) {
      const id = await insertId(
        `insert into devices (customer_id, product_id, device_serial, label) values ($1, $2, $3, $4) returning id`,
        [customerId, await productId(t), `V${token}V`, `Search device ${next()}`],
      );
      return { id, q: `${token}v`.toLowerCase() };
    },
    refused: [DEMO.customer],
  },
  {
    operation: 'listCertificates',
    path: '/api/v1/certificates',
    make: (text) =>
      insertId(
        `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
         values ($1, $2, '2030-01-01', 'it.pdf') returning id`,
        [text, `VT-${next()}`],
      ),
    async makeByOtherField(token) {
      const id = await insertId(
        `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
         values ($1, $2, '2030-01-01', 'it.pdf') returning id`,
        [`L-${next()}`, `Treatment ${token}`],
      );
      return { id, q: `TREATMENT ${token.toLowerCase()}` };
    },
    refused: [],
  },
  {
    operation: 'listProducts',
    path: '/api/v1/products',
    make: (text) => insertId(`insert into products (name, type) values ($1, 1) returning id`, [text]),
    refused: [DEMO.customer, DEMO.care],
  },
];

/** Per list, the ids of the rows below, by their letter. */
const rows: Record<string, Record<string, number>> = {};

beforeAll(async () => {
  t = await createTestApp();
  customerId = await makeCustomer(t, { name: `Search owner ${unique()}` });
  for (const list of LISTS) {
    const token = unique();
    tokens[list.operation] = token;
    rows[list.operation] = {
      plain: await list.make(`Alpha_${token} 100%`),
      wildcardLookalike: await list.make(`AlphaX${token} 1000`),
      backslash: await list.make(`dir\\${token}`),
      noBackslash: await list.make(`dir${token}`),
      unicode: await list.make(`Ärzte Øst ${token}`),
      unrelated: await list.make(`Unrelated ${next()}`),
    };
  }
});
afterAll(() => t?.close());

const tokenCache = new Map<string, string>();
async function tokenOf(email: string): Promise<string> {
  let token = tokenCache.get(email);
  if (!token) {
    token = await t.login(email);
    tokenCache.set(email, token);
  }
  return token;
}

async function search(list: SearchedList, q: string | undefined, email: string = DEMO.admin) {
  const url = q === undefined ? list.path : `${list.path}?q=${encodeURIComponent(q)}`;
  return t.as(await tokenOf(email), { method: 'GET', url });
}

async function found(list: SearchedList, q: string): Promise<number[]> {
  const response = await search(list, q);
  expectContract(list.operation, response, 200);
  const page = response.json().data as { data: { id: number }[]; total: number };
  expect(page.total).toBe(page.data.length);
  return page.data.map((row) => row.id).sort((a, b) => a - b);
}

const idsOf = (list: SearchedList, ...letters: string[]) =>
  letters.map((letter) => rows[list.operation]?.[letter] as number).sort((a, b) => a - b);

describe.each(LISTS)('$operation ?q=', (list) => {
  const token = () => tokens[list.operation] as string;

  it('finds every row containing the text, whatever its case', async () => {
    expect(await found(list, token().toLowerCase())).toEqual(
      idsOf(list, 'plain', 'wildcardLookalike', 'backslash', 'noBackslash', 'unicode'),
    );
    expect(await found(list, `ALPHA_${token()}`)).toEqual(idsOf(list, 'plain'));
  });

  it('finds nothing when no row contains the text', async () => {
    const response = await search(list, `nothing-${token()}`);
    expectContract(list.operation, response, 200);
    expect(response.json().data).toMatchObject({ data: [], total: 0, page: 1 });
  });

  it('takes %, _ and \\ literally, not as wildcards', async () => {
    expect(await found(list, `${token()} 100%`)).toEqual(idsOf(list, 'plain'));
    expect(await found(list, `a_${token()}`)).toEqual(idsOf(list, 'plain'));
    expect(await found(list, `r\\${token()}`)).toEqual(idsOf(list, 'backslash'));
    expect(await found(list, `%${token()}%`)).toEqual([]);
  });

  it('ignores case beyond ASCII', async () => {
    expect(await found(list, `äRZTE øST ${token().toLowerCase()}`)).toEqual(idsOf(list, 'unicode'));
  });

  it('ignores surrounding spaces, and a blank search is no search', async () => {
    expect(await found(list, `  ${token()}\t `)).toHaveLength(5);
    const all = await search(list, undefined);
    const blank = await search(list, '   ');
    expectContract(list.operation, blank, 200);
    expect(blank.json().data.total).toBe(all.json().data.total);
    expect(blank.json().data.total).toBeGreaterThan(5);
  });

  if (list.makeByOtherField) {
    const makeByOtherField = list.makeByOtherField;
    it('searches its other field too', async () => {
      const { id, q } = await makeByOtherField(unique());
      expect(await found(list, q)).toEqual([id]);
    });
  }

  it('accepts 100 characters and refuses 101 as a validation error', async () => {
    const longest = await search(list, 'é'.repeat(100));
    expectContract(list.operation, longest, 200);
    const tooLong = await search(list, 'x'.repeat(101));
    expectContract(list.operation, tooLong, 422);
    expect(tooLong.json()).toMatchObject({ status: 'error', message: 'validation_error' });
    expect(Object.keys(tooLong.json().data)).toEqual(['q']);
  });

  it('keeps the list to the roles that may see it', async () => {
    for (const email of [DEMO.super, DEMO.admin, DEMO.care, DEMO.customer]) {
      const response = await search(list, token(), email);
      if (list.refused.includes(email)) {
        expectContract(list.operation, response, 403);
      } else {
        expectContract(list.operation, response, 200);
        expect([email, response.json().data.total]).toEqual([email, 5]);
      }
    }
  });
});

/*
 * The customer page's tabs: `/customers/{id}/users` and `/customers/{id}/devices`, unpaged. The search
 * narrows the one customer's rows and never reaches another customer's, and the tenant rule stays: a
 * CUSTOMER user searches its own customer's list and gets 404 for any other, search or not.
 */
interface CustomerSubList {
  operation: string;
  path(customer: number): string;
  /** A row of `customer` whose main searched field holds `text`. */
  make(customer: number, text: string): Promise<number>;
  /** A row of `customer` found only through its other searched field, with a query that finds it. */
  makeByOtherField(customer: number, token: string): Promise<{ id: number; q: string }>;
}

const SUB_LISTS: CustomerSubList[] = [
  {
    operation: 'listCustomerUsers',
    path: (customer) => `/api/v1/customers/${customer}/users`,
    make: (customer, text) =>
      insertId(
        `insert into users (customer_id, name, email, password_hash, role) values ($1, $2, $3, 'x', 'CUSTOMER') returning id`,
        [customer, text, `sub-search-${next()}@example.com`],
      ),
    async makeByOtherField(customer, token) {
      const id = await insertId(
        `insert into users (customer_id, name, email, password_hash, role) values ($1, $2, $3, 'x', 'CUSTOMER') returning id`,
        [customer, `Sub search user ${next()}`, `${token.toLowerCase()}@sub.example`],
      );
      return { id, q: `${token}@SUB` };
    },
  },
  {
    operation: 'listCustomerDevices',
    path: (customer) => `/api/v1/customers/${customer}/devices`,
    make: async (customer, text) =>
      insertId(
        `insert into devices (customer_id, product_id, device_serial, label) values ($1, $2, $3, $4) returning id`,
        [customer, await productId(t), `R${unique()}R`, text],
      ),
    async makeByOtherField(customer, token) {
      const id = await insertId(
        `insert into devices (customer_id, product_id, device_serial, label) values ($1, $2, $3, $4) returning id`,
        [customer, await productId(t), `W${token}W`, `Sub search device ${next()}`],
      );
      return { id, q: `${token}w`.toLowerCase() };
    },
  },
];

describe.each(SUB_LISTS)('$operation ?q=', (list) => {
  /** The demo CUSTOMER user's own customer, and another customer; both get rows matching `token`. */
  let own = 0;
  let other = 0;
  let token = '';
  const ownRows: Record<string, number> = {};

  beforeAll(async () => {
    own = await customerIdOf(t, DEMO.customer);
    other = await makeCustomer(t, { name: `Sub search other ${unique()}` });
    token = unique();
    ownRows.plain = await list.make(own, `Beta_${token} 100%`);
    ownRows.lookalike = await list.make(own, `BetaX${token} 1000`);
    ownRows.unicode = await list.make(own, `Ölçer Ñandú ${token}`);
    await list.make(own, `Unrelated ${next()}`);
    await list.make(other, `Beta_${token} elsewhere`);
  });

  async function get(customer: number, q: string | undefined, email: string = DEMO.admin) {
    const url = q === undefined ? list.path(customer) : `${list.path(customer)}?q=${encodeURIComponent(q)}`;
    return t.as(await tokenOf(email), { method: 'GET', url });
  }

  async function ids(customer: number, q: string | undefined, email: string = DEMO.admin): Promise<number[]> {
    const response = await get(customer, q, email);
    expectContract(list.operation, response, 200);
    return (response.json().data as { id: number }[]).map((row) => row.id).sort((a, b) => a - b);
  }

  const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);

  it("finds the customer's rows containing the text, whatever its case, and none of another customer's", async () => {
    expect(await ids(own, token.toLowerCase())).toEqual(
      sorted(ownRows.plain as number, ownRows.lookalike as number, ownRows.unicode as number),
    );
    expect(await ids(own, `ölçer ñANDÚ ${token}`)).toEqual([ownRows.unicode]);
    const others = await ids(other, token);
    expect(others).toHaveLength(1);
    expect(others).not.toContain(ownRows.plain);
  });

  it('takes % and _ literally; blank or spaced searches as in the paged lists', async () => {
    expect(await ids(own, `${token} 100%`)).toEqual([ownRows.plain]);
    expect(await ids(own, `a_${token}`)).toEqual([ownRows.plain]);
    expect(await ids(own, `%${token}%`)).toEqual([]);
    expect(await ids(own, `  beta_${token}\t`)).toEqual([ownRows.plain]);
    const all = await ids(own, undefined);
    expect(await ids(own, '   ')).toEqual(all);
    expect(all.length).toBeGreaterThan(3);
  });

  it('searches its other field too', async () => {
    const { id, q } = await list.makeByOtherField(own, unique());
    expect(await ids(own, q)).toEqual([id]);
  });

  it('accepts 100 characters and refuses 101 as a validation error', async () => {
    expectContract(list.operation, await get(own, 'é'.repeat(100)), 200);
    const tooLong = await get(own, 'x'.repeat(101));
    expectContract(list.operation, tooLong, 422);
    expect(Object.keys(tooLong.json().data)).toEqual(['q']);
  });

  it("keeps the tenant rule: staff search any customer, a CUSTOMER only its own (another's is 404)", async () => {
    const expected = sorted(ownRows.plain as number, ownRows.lookalike as number, ownRows.unicode as number);
    for (const email of [DEMO.super, DEMO.admin, DEMO.care, DEMO.customer]) {
      expect([email, await ids(own, token, email)]).toEqual([email, expected]);
    }
    for (const q of [token, undefined]) {
      const refused = await get(other, q, DEMO.customer);
      expectContract(list.operation, refused, 404);
      expect(JSON.stringify(refused.json())).not.toContain(token);
    }
  });
});
