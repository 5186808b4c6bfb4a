/**
 * A compliance report of a clinic's month of 10,000 cycles: target ≤ 5 s from the request's
 * figures to the PDF's bytes. Not a test: prints figures (docs/benchmarks.md).
 *
 *   node scripts/bench/report.ts [--cycles 10000] [--failed-share 0.03] [--gap-every 200] [--postgres]
 *
 * A throwaway database (embedded PGlite; --postgres: a new database on the local server) gets one
 * blockchain clinic with 6 devices, 10,000 records in one month (a share of them not OK, 8 consumable
 * lots with certificates in force, expired and missing, their batches) and half of them in mined
 * blocks; each device skips a few progressive ids (gaps) and stores a few records late (out of order).
 * Then, three times each: the figures (complianceSummary, the SQL), the PDF
 * (renderComplianceReport) and a signature stamped on every page (stampSignature).
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { complianceSummary, findReportCustomer } from '#server/modules/reports/summary.ts';
import { renderComplianceReport } from '#server/pdf/report/compliance-report.ts';
import { stampSignature } from '#server/pdf/report/signature-stamp.ts';
import { throwawayDatabase } from './throwaway-database.ts';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '10000' },
    'failed-share': { type: 'string', default: '0.03' },
    'gap-every': { type: 'string', default: '200' },
    postgres: { type: 'boolean', default: false },
  },
});
const CYCLES = Number(values.cycles);
const FAILED_SHARE = Number(values['failed-share']);
const GAP_EVERY = Number(values['gap-every']);
const PERIOD = { from: '2025-03-01', to: '2025-03-31' };

const target = await throwawayDatabase('report', values.postgres);
const { pool } = target.database;
try {
  const customer = Number(
    (
      await pool.query(
        `insert into customers (name, country, city, enable_blockchain) values ('Clinica Benchmark', 'IT', 'Forlì', true) returning id`,
      )
    ).rows[0].id,
  );
  const product = Number(
    (await pool.query(`insert into products (name, type) values ('Sterilizing Bath', 2) returning id`))
      .rows[0].id,
  );
  const devices: number[] = [];
  for (let i = 0; i < 6; i += 1) {
    const made = await pool.query(
      `insert into devices (customer_id, product_id, device_serial, label) values ($1, $2, $3, $4) returning id`,
      [customer, product, `BN0000${i}0`.slice(0, 8), `Bath ${i + 1}`],
    );
    devices.push(Number(made.rows[0].id));
  }
  const started = performance.now();
  // Two statements: the records of the month, spread over devices, lots and the month's seconds. Each
  // device counts its own progressive ids and skips 3 of them every 200 (--gap-every: record gaps); every 500th
  // record of a device is held back and stored after the others (out of order).
  const records = (heldBack: boolean) =>
    pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, consumables_lot, lot_progressive_id)
       select ($1::int[])[1 + g % 6], $2, timestamptz '2025-03-01' + (g * (2678399.0 / $3)) * interval '1 second',
         1 + g / 6 + 3 * ((g / 6) / $6::int),
         300 + g % 17, 10, 9.5, 4000 - g / 10.0,
         case when random() < $4 then 1 + (g % 3) else 0 end,
         'LOT-' || (g % 8), 1 + g / 500
       from generate_series(1, $3) g
       where ((g / 6) % 500 = 250) = $5
       order by g`,
      [`{${devices.join(',')}}`, customer, CYCLES, FAILED_SHARE, heldBack, GAP_EVERY],
    );
  await records(false);
  await records(true);
  await pool.query(
    `insert into consumable_batches (device_id, customer_id, lot_code, lot_progressive, batch_quantity, sterilization_count)
     select device_id, customer_id, consumables_lot, lot_progressive_id, 500, count(*)
     from sterilizations where customer_id = $1 group by 1, 2, 3, 4`,
    [customer],
  );
  await pool.query(
    `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
     select 'LOT-' || g, 'VT-' || g, case when g < 4 then date '2027-01-01' else date '2025-03-10' end, 'c.pdf'
     from generate_series(0, 5) g`,
  );
  const blocks = Math.ceil(CYCLES / 2 / 1024);
  for (let b = 0; b < blocks; b += 1) {
    const hash = `0x${createHash('sha256').update(`block ${b}`).digest('hex')}`;
    const block = await pool.query(
      `insert into blockchain_data_blocks (status, network, transaction_hash, merkle_root, hashing_version)
       values ('MINED', 'devnet', $1, $1, 2) returning id`,
      [hash],
    );
    await pool.query(
      `update sterilizations set blockchain_data_block_id = $1, hashing_version = 2, merkle_proof = '{}'
       where id in (select id from sterilizations where customer_id = $2 and blockchain_data_block_id is null
         order by id limit 1024)`,
      [block.rows[0].id, customer],
    );
  }
  console.log(
    `${target.label}: ${CYCLES} cycles seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const found = await findReportCustomer(target.database.db, customer);
  if (!found) throw new Error('no customer');
  for (let run = 1; run <= 3; run += 1) {
    const t0 = performance.now();
    const summary = await complianceSummary(
      target.database.db,
      found,
      PERIOD,
      'http://localhost:3000/verify',
    );
    const t1 = performance.now();
    const pdf = await renderComplianceReport({
      reportId: run,
      language: 'it',
      generatedAt: new Date(),
      summary,
    });
    const t2 = performance.now();
    const signed = await stampSignature(pdf, {
      index: 0,
      language: 'it',
      signerName: 'Dott.ssa Benchmark',
      signerEmail: 'bench@example.com',
      meaning: 'reviewed',
      comment: 'Benchmark',
      signedAt: new Date(),
    });
    const t3 = performance.now();
    console.log(
      `run ${run}: figures ${(t1 - t0).toFixed(0)} ms, PDF ${(t2 - t1).toFixed(0)} ms (${(pdf.length / 1024).toFixed(0)} KiB, ` +
        `${summary.totals.total} cycles, ${summary.failed_cycles_listed} failed listed, ${summary.batches.length} batches, ` +
        `${summary.sequence.gaps_total} gaps, ${summary.sequence.out_of_order_total} out of order), ` +
        `total ${(t2 - t0).toFixed(0)} ms; signature stamped in ${(t3 - t2).toFixed(0)} ms (${(signed.length / 1024).toFixed(0)} KiB)`,
    );
  }
} finally {
  await target.dispose();
}
