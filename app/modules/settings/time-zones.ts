import type { StoreSettings } from './settings';

// Brazil's time zones as staff know them: by the states that keep each one's clock. Place names,
// so the texts test reads this file as data.
export const TIME_ZONE_LABELS: Record<StoreSettings['timezone'], string> = {
  'America/Sao_Paulo': 'Brasília (São Paulo, Rio, Minas, Sul, Goiás, DF)',
  'America/Noronha': 'Fernando de Noronha',
  'America/Belem': 'Belém (Pará, Amapá)',
  'America/Fortaleza': 'Fortaleza (Ceará, Maranhão, Piauí, Rio Grande do Norte, Paraíba)',
  'America/Recife': 'Recife (Pernambuco)',
  'America/Araguaina': 'Araguaína (Tocantins)',
  'America/Maceio': 'Maceió (Alagoas, Sergipe)',
  'America/Bahia': 'Salvador (Bahia)',
  'America/Campo_Grande': 'Campo Grande (Mato Grosso do Sul)',
  'America/Cuiaba': 'Cuiabá (Mato Grosso)',
  'America/Santarem': 'Santarém (oeste do Pará)',
  'America/Porto_Velho': 'Porto Velho (Rondônia)',
  'America/Boa_Vista': 'Boa Vista (Roraima)',
  'America/Manaus': 'Manaus (Amazonas)',
  'America/Eirunepe': 'Eirunepé (oeste do Amazonas)',
  'America/Rio_Branco': 'Rio Branco (Acre)',
};
