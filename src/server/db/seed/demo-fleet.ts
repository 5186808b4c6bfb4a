// Who the demo has: the manufacturer (customer 1), a handful of clinics with their devices, and the
// demo accounts. Plain data; seed.ts writes it.

export interface ClinicSpec {
  name: string;
  address: string;
  postcode: string;
  city: string;
  country: string;
  email: string;
  phone: string;
  referrer: string | null;
  enableBlockchain: boolean;
  disabled: boolean;
  lat: number;
  lon: number;
  devices: { type: 1 | 2; label: string }[];
}

export const MANUFACTURER = {
  name: 'UV Tech S.r.l.',
  address: 'Via Enrico Fermi 21',
  postcode: '37135',
  city: 'Verona',
  country: 'IT',
  email: 'info@uvtech.example.com',
  phone: '+39 045 555 0100',
};

export const CLINICS: ClinicSpec[] = [
  {
    name: 'Clinica San Marco',
    address: 'Corso Vittorio Emanuele II 112',
    postcode: '10121',
    city: 'Torino',
    country: 'IT',
    email: 'segreteria@clinicasanmarco.example.com',
    phone: '+39 011 555 0142',
    referrer: 'Marco Bianchi',
    enableBlockchain: true,
    disabled: false,
    lat: 45.0703,
    lon: 7.6869,
    devices: [
      { type: 1, label: 'Ambulatorio 1' },
      { type: 1, label: 'Ambulatorio 2' },
      { type: 2, label: 'Sala sterilizzazione' },
      { type: 2, label: 'Pronto soccorso' },
    ],
  },
  {
    name: 'Poliambulatorio Santa Chiara',
    address: 'Via dei Servi 28',
    postcode: '50122',
    city: 'Firenze',
    country: 'IT',
    email: 'info@santachiara.example.com',
    phone: '+39 055 555 0177',
    referrer: 'Giulia Romano',
    enableBlockchain: false,
    disabled: false,
    lat: 43.7696,
    lon: 11.2558,
    devices: [
      { type: 1, label: 'Studio medico A' },
      { type: 2, label: 'Sala piccoli interventi' },
      { type: 1, label: 'Studio medico B' },
    ],
  },
  {
    name: 'Clinica Veterinaria Ticino',
    address: 'Via Nassa 15',
    postcode: '6900',
    city: 'Lugano',
    country: 'CH',
    email: 'ambulatorio@vet-ticino.example.com',
    phone: '+41 91 555 01 23',
    referrer: null,
    enableBlockchain: true,
    disabled: false,
    lat: 46.0037,
    lon: 8.9511,
    devices: [
      { type: 1, label: 'Ambulatorio piccoli animali' },
      { type: 2, label: 'Sala chirurgica' },
    ],
  },
  {
    name: 'Centre Médical Riviera',
    address: '12 Boulevard Victor Hugo',
    postcode: '06000',
    city: 'Nice',
    country: 'FR',
    email: 'contact@cm-riviera.example.com',
    phone: '+33 4 93 55 50 12',
    referrer: 'Marco Bianchi',
    enableBlockchain: false,
    disabled: false,
    lat: 43.7102,
    lon: 7.262,
    devices: [
      { type: 1, label: 'Cabinet 1' },
      { type: 1, label: 'Cabinet 2' },
      { type: 2, label: 'Salle de stérilisation' },
    ],
  },
  {
    name: 'Studio Dentistico Lago Maggiore',
    address: 'Via Cavour 9',
    postcode: '28921',
    city: 'Verbania',
    country: 'IT',
    email: 'studio@dentisticolago.example.com',
    phone: '+39 0323 555 019',
    referrer: null,
    enableBlockchain: false,
    disabled: true,
    lat: 45.9216,
    lon: 8.5518,
    devices: [{ type: 1, label: 'Poltrona 1' }],
  },
];

/** customerId 1 is the manufacturer; clinic i (0-based) becomes customer i + 2. */
export const ACCOUNTS = [
  { email: 'super@example.com', name: 'Sofia Ferrari', role: 'SUPER_ADMIN', customerId: 1, disabled: false },
  { email: 'admin@example.com', name: 'Marco Bianchi', role: 'ADMIN', customerId: 1, disabled: false },
  { email: 'care@example.com', name: 'Giulia Romano', role: 'CUSTOMER_CARE', customerId: 1, disabled: false },
  { email: 'customer@example.com', name: 'Luca Conti', role: 'CUSTOMER', customerId: 2, disabled: false },
  {
    email: 'reception@sanmarco.example.com',
    name: 'Elena Ricci',
    role: 'CUSTOMER',
    customerId: 2,
    disabled: false,
  },
  {
    email: 'former@sanmarco.example.com',
    name: 'Paolo Greco',
    role: 'CUSTOMER',
    customerId: 2,
    disabled: true,
  },
  {
    email: 'direzione@santachiara.example.com',
    name: 'Francesca Marino',
    role: 'CUSTOMER',
    customerId: 3,
    disabled: false,
  },
  { email: 'vet@ticino.example.com', name: 'Andrea Galli', role: 'CUSTOMER', customerId: 4, disabled: false },
  {
    email: 'accueil@cm-riviera.example.com',
    name: 'Camille Laurent',
    role: 'CUSTOMER',
    customerId: 5,
    disabled: false,
  },
] as const;
