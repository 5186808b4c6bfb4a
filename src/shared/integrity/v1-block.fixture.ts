/**
 * A hashing_version 1 block as the code before version 2 made it: three records, their
 * leaves, root and proofs, computed once with that code and frozen here. Tests load it into a database,
 * a receipt or the modal to check that blocks made before version 2 still verify. Never recompute these
 * values with the current code: that would test nothing.
 */
import type { Hex } from 'viem';

const BASE = {
  received_ts: '2025-03-14T09:26:53.589Z',
  device_serial: 'V1FIXT17',
  supplied_energy: '12.50',
  nominal_time: '15.00',
  effective_time: '14.75',
  residual_lamp_life: '8421.00',
  status_code: 0,
  latitude: '45.464211' as string | null,
  longitude: '9.191383' as string | null,
  consumables_lot: 'LOT2503' as string | null,
  notes: null as string | null,
};

/** Record 3 stores "" in two text fields: version 1 hashes "" apart from null. */
export const V1_BLOCK = {
  hashing_version: 1 as const,
  records: [
    { ...BASE, id: 9_100_101, progressive_id: 41, lot_progressive_id: 7 as number | null },
    {
      ...BASE,
      id: 9_100_102,
      progressive_id: 42,
      lot_progressive_id: 8 as number | null,
      received_ts: '2025-03-14T09:48:10.000Z',
      status_code: 2,
      notes: 'lamp replaced "A"\nok',
    },
    {
      ...BASE,
      id: 9_100_103,
      progressive_id: 43,
      received_ts: '2025-03-14T10:02:00.500Z',
      supplied_energy: '9.10',
      latitude: null,
      longitude: null,
      consumables_lot: '',
      lot_progressive_id: null,
      notes: '',
    },
  ],
  leaves: [
    '0x1caf24f7929a51c38fef30fd57189f552175a50ee5b5b06829616f1de541c913',
    '0x77059ba0366894e41775501cc486bab27418da9e394ef2fa02a0f818b5315733',
    '0x5205ac29a692866e575d4bff342c08a6a7006c7d8eaca9235040e81b419394eb',
  ] as Hex[],
  root: '0xf1316922a02605e652557d41439d1624d37d0ffee44d1eebec0e2dba31b27517' as Hex,
  proofs: [
    [
      '0x77059ba0366894e41775501cc486bab27418da9e394ef2fa02a0f818b5315733',
      '0x5205ac29a692866e575d4bff342c08a6a7006c7d8eaca9235040e81b419394eb',
    ],
    [
      '0x1caf24f7929a51c38fef30fd57189f552175a50ee5b5b06829616f1de541c913',
      '0x5205ac29a692866e575d4bff342c08a6a7006c7d8eaca9235040e81b419394eb',
    ],
    ['0xc8003471f6fd74f1bfa0f7243b07eefdf1110e18a2c1415a02b2237c32a98279'],
  ] as Hex[][],
};
