/**
 * What anchoring cost, month by month (docs/integrity.md §8): each MINED or FINAL block keeps the gas its
 * anchoring transaction used and the fee its transactions paid; records are counted through their block.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import type { Schemas } from '#shared/api/index.ts';

type Figures = Schemas['AnchoringCost'];

type MonthRow = {
  month: string;
  blocks: string;
  transactions: string;
  records: string;
  records_with_fee: string;
  gas_used: string | null;
  fee_paid_wei: string | null;
};

const EMPTY = { blocks: 0, transactions: 0, records: 0, recordsWithFee: 0, gasUsed: 0, feePaid: 0n };
type Sums = typeof EMPTY;

function figures(sums: Sums): Figures {
  return {
    blocks: sums.blocks,
    transactions: sums.transactions,
    records: sums.records,
    records_with_fee: sums.recordsWithFee,
    gas_used: sums.gasUsed,
    fee_paid_wei: sums.feePaid.toString(),
    fee_per_record_wei:
      sums.recordsWithFee > 0 ? (sums.feePaid / BigInt(sums.recordsWithFee)).toString() : null,
  };
}

/** The calendar months (UTC) of the window, oldest first: `months` of them, the current one last. */
function monthsBack(now: Date, months: number): string[] {
  const keys: string[] = [];
  for (let back = months - 1; back >= 0; back -= 1) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    keys.push(`${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return keys;
}

export async function anchoringCosts(
  db: Db,
  network: string,
  months: number,
  now = new Date(),
): Promise<Schemas['AnchoringCosts']> {
  const keys = monthsBack(now, months);
  const since = `${keys[0]}-01T00:00:00Z`;
  const rows = await db.execute<MonthRow>(sql`
    with mined as (
      select b.id, b.gas_used, b.fee_paid_wei,
        to_char(b.mined_at at time zone 'UTC', 'YYYY-MM') as month,
        (select count(*) from sterilizations s where s.blockchain_data_block_id = b.id) as records,
        (select count(*) from anchor_transactions t where t.block_id = b.id and t.fee_paid_wei is not null)
          as transactions
      from blockchain_data_blocks b
      where b.status in ('MINED', 'FINAL') and b.network = ${network} and b.mined_at >= ${since}::timestamptz)
    select month, count(*) as blocks, sum(transactions) as transactions, sum(records) as records,
      coalesce(sum(records) filter (where fee_paid_wei is not null), 0) as records_with_fee,
      sum(gas_used) as gas_used, sum(fee_paid_wei) as fee_paid_wei
    from mined group by month`);
  const byMonth = new Map<string, Sums>();
  for (const row of rows.rows) {
    byMonth.set(row.month, {
      blocks: Number(row.blocks),
      transactions: Number(row.transactions),
      records: Number(row.records),
      recordsWithFee: Number(row.records_with_fee),
      gasUsed: Number(row.gas_used ?? 0),
      // numeric(78, 0) sums come back as exact decimal text.
      feePaid: BigInt(String(row.fee_paid_wei ?? '0').split('.')[0]!),
    });
  }
  const total = { ...EMPTY };
  const monthly = keys.map((month) => {
    const sums = byMonth.get(month) ?? EMPTY;
    total.blocks += sums.blocks;
    total.transactions += sums.transactions;
    total.records += sums.records;
    total.recordsWithFee += sums.recordsWithFee;
    total.gasUsed += sums.gasUsed;
    total.feePaid += sums.feePaid;
    return { month, ...figures(sums) };
  });
  return { network, months: monthly, total: figures(total) };
}
