// ISO 3166-1 alpha-2 codes with the English names and common alternative names the lists use
// ("Korea, North", "Burma", "Iran (Islamic Republic of)"), so list countries given as names and
// query countries given as codes can be compared.

const COUNTRY_TABLE = `AD:Andorra|AE:United Arab Emirates;UAE;Emirates|AF:Afghanistan|AG:Antigua and Barbuda|AI:Anguilla
|AL:Albania|AM:Armenia|AO:Angola|AQ:Antarctica|AR:Argentina|AS:American Samoa|AT:Austria|AU:Australia|AW:Aruba
|AX:Aland Islands|AZ:Azerbaijan|BA:Bosnia and Herzegovina;Bosnia-Herzegovina;Bosnia|BB:Barbados|BD:Bangladesh
|BE:Belgium|BF:Burkina Faso|BG:Bulgaria|BH:Bahrain|BI:Burundi|BJ:Benin|BL:Saint Barthelemy|BM:Bermuda
|BN:Brunei;Brunei Darussalam|BO:Bolivia|BQ:Bonaire, Sint Eustatius and Saba;Caribbean Netherlands|BR:Brazil
|BS:Bahamas;The Bahamas|BT:Bhutan|BV:Bouvet Island|BW:Botswana|BY:Belarus|BZ:Belize|CA:Canada
|CC:Cocos (Keeling) Islands|CD:Congo, Democratic Republic of the;Democratic Republic of the Congo;DRC;Congo-Kinshasa
|CF:Central African Republic|CG:Congo, Republic of the;Republic of the Congo;Congo;Congo-Brazzaville
|CH:Switzerland|CI:Cote d'Ivoire;Ivory Coast|CK:Cook Islands|CL:Chile|CM:Cameroon|CN:China;People's Republic of China;PRC
|CO:Colombia|CR:Costa Rica|CU:Cuba|CV:Cabo Verde;Cape Verde|CW:Curacao|CX:Christmas Island|CY:Cyprus
|CZ:Czechia;Czech Republic|DE:Germany|DJ:Djibouti|DK:Denmark|DM:Dominica|DO:Dominican Republic|DZ:Algeria
|EC:Ecuador|EE:Estonia|EG:Egypt|EH:Western Sahara|ER:Eritrea|ES:Spain|ET:Ethiopia|FI:Finland|FJ:Fiji
|FK:Falkland Islands|FM:Micronesia;Micronesia, Federated States of|FO:Faroe Islands|FR:France|GA:Gabon
|GB:United Kingdom;UK;Great Britain;Britain;England;Scotland;Wales;Northern Ireland|GD:Grenada|GE:Georgia
|GF:French Guiana|GG:Guernsey|GH:Ghana|GI:Gibraltar|GL:Greenland|GM:Gambia;The Gambia|GN:Guinea
|GP:Guadeloupe|GQ:Equatorial Guinea|GR:Greece|GS:South Georgia and the South Sandwich Islands|GT:Guatemala
|GU:Guam|GW:Guinea-Bissau|GY:Guyana|HK:Hong Kong|HM:Heard Island and McDonald Islands|HN:Honduras
|HR:Croatia|HT:Haiti|HU:Hungary|ID:Indonesia|IE:Ireland|IL:Israel|IM:Isle of Man|IN:India
|IO:British Indian Ocean Territory|IQ:Iraq|IR:Iran;Iran, Islamic Republic of;Islamic Republic of Iran|IS:Iceland
|IT:Italy|JE:Jersey|JM:Jamaica|JO:Jordan|JP:Japan|KE:Kenya|KG:Kyrgyzstan;Kyrgyz Republic|KH:Cambodia
|KI:Kiribati|KM:Comoros|KN:Saint Kitts and Nevis;St. Kitts and Nevis
|KP:North Korea;Korea, North;Korea, Democratic People's Republic of;Democratic People's Republic of Korea;DPRK
|KR:South Korea;Korea, South;Korea, Republic of;Republic of Korea;Korea|KW:Kuwait|KY:Cayman Islands
|KZ:Kazakhstan|LA:Laos;Lao People's Democratic Republic|LB:Lebanon|LC:Saint Lucia;St. Lucia|LI:Liechtenstein
|LK:Sri Lanka|LR:Liberia|LS:Lesotho|LT:Lithuania|LU:Luxembourg|LV:Latvia|LY:Libya|MA:Morocco|MC:Monaco
|MD:Moldova;Moldova, Republic of|ME:Montenegro|MF:Saint Martin|MG:Madagascar|MH:Marshall Islands
|MK:North Macedonia;Macedonia;The former Yugoslav Republic of Macedonia|ML:Mali|MM:Burma;Myanmar|MN:Mongolia
|MO:Macau;Macao|MP:Northern Mariana Islands|MQ:Martinique|MR:Mauritania|MS:Montserrat|MT:Malta|MU:Mauritius
|MV:Maldives|MW:Malawi|MX:Mexico|MY:Malaysia|MZ:Mozambique|NA:Namibia|NC:New Caledonia|NE:Niger
|NF:Norfolk Island|NG:Nigeria|NI:Nicaragua|NL:Netherlands;The Netherlands;Holland|NO:Norway|NP:Nepal|NR:Nauru
|NU:Niue|NZ:New Zealand|OM:Oman|PA:Panama|PE:Peru|PF:French Polynesia|PG:Papua New Guinea|PH:Philippines
|PK:Pakistan|PL:Poland|PM:Saint Pierre and Miquelon|PN:Pitcairn|PR:Puerto Rico
|PS:Palestine;Palestinian Territories;West Bank;Gaza;West Bank and Gaza|PT:Portugal|PW:Palau|PY:Paraguay
|QA:Qatar|RE:Reunion|RO:Romania|RS:Serbia|RU:Russia;Russian Federation|RW:Rwanda|SA:Saudi Arabia|SB:Solomon Islands
|SC:Seychelles|SD:Sudan|SE:Sweden|SG:Singapore|SH:Saint Helena|SI:Slovenia|SJ:Svalbard and Jan Mayen
|SK:Slovakia;Slovak Republic|SL:Sierra Leone|SM:San Marino|SN:Senegal|SO:Somalia|SR:Suriname|SS:South Sudan
|ST:Sao Tome and Principe|SV:El Salvador|SX:Sint Maarten|SY:Syria;Syrian Arab Republic|SZ:Eswatini;Swaziland
|TC:Turks and Caicos Islands|TD:Chad|TF:French Southern Territories|TG:Togo|TH:Thailand|TJ:Tajikistan
|TK:Tokelau|TL:Timor-Leste;East Timor|TM:Turkmenistan|TN:Tunisia|TO:Tonga|TR:Turkey;Turkiye|TT:Trinidad and Tobago
|TV:Tuvalu|TW:Taiwan|TZ:Tanzania;Tanzania, United Republic of|UA:Ukraine|UG:Uganda
|UM:United States Minor Outlying Islands|US:United States;United States of America;USA;U.S.A.;U.S.|UY:Uruguay
|UZ:Uzbekistan|VA:Holy See;Vatican;Vatican City|VC:Saint Vincent and the Grenadines|VE:Venezuela|VG:British Virgin Islands;Virgin Islands, British
|VI:U.S. Virgin Islands;Virgin Islands, U.S.|VN:Vietnam;Viet Nam|VU:Vanuatu|WF:Wallis and Futuna|WS:Samoa
|XK:Kosovo|YE:Yemen|YT:Mayotte|ZA:South Africa|ZM:Zambia|ZW:Zimbabwe|XC:Crimea;Crimea region of Ukraine`;

function countryKey(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

const CODE_BY_NAME = new Map<string, string>();
const CODES = new Set<string>();
const COUNTRY_WORDS = new Set<string>();

// Words inside country names that are ordinary words too; they must not be treated as places.
const NOT_PLACE_WORDS = new Set([
  "and",
  "the",
  "of",
  "united",
  "states",
  "state",
  "republic",
  "islands",
  "island",
  "north",
  "south",
  "east",
  "west",
  "new",
  "saint",
  "st",
  "democratic",
  "people",
  "peoples",
  "s",
  "federation",
  "federated",
  "kingdom",
  "great",
  "islamic",
  "arab",
  "central",
  "african",
  "virgin",
  "british",
  "french",
  "minor",
  "outlying",
  "territories",
  "territory",
  "city",
  "region",
  "holy",
  "see",
  "man",
  "bank",
  "coast",
  "ivory",
  "guinea",
  "sea",
  "cook",
  "christmas",
  "heard",
  "jersey",
  "georgia",
  "jordan",
  "chad",
  "niger",
  "us",
  "uk",
  "u",
  "salvador",
  "el",
  "de",
  "da",
  "former",
  "sint",
  "san",
  "sao",
  "costa",
  "rica",
  "puerto",
  "rico",
  "sri",
  "lanka",
  "leone",
  "sierra",
  "marino",
  "trinidad",
  "tobago",
]);

for (const group of COUNTRY_TABLE.split("|")) {
  const [code, names] = group.trim().split(":") as [string, string];
  CODES.add(code);
  for (const name of names.split(";")) {
    const key = countryKey(name);
    CODE_BY_NAME.set(key, code);
    for (const word of key.split(" "))
      if (word.length > 2 && !NOT_PLACE_WORDS.has(word)) COUNTRY_WORDS.add(word);
  }
}
// Adjectives of the countries most named on the lists weigh like the country itself.
for (const word of ["iranian", "russian", "syrian", "korean", "chinese", "cuban", "iraqi", "venezuelan"]) {
  COUNTRY_WORDS.add(word);
}

/** ISO-2 code for a code or an English country name as the lists write it, or undefined. */
export function toCountryCode(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length === 2) {
    const upper = trimmed.toUpperCase();
    return CODES.has(upper) ? upper : undefined;
  }
  const key = countryKey(trimmed);
  const direct = CODE_BY_NAME.get(key);
  if (direct !== undefined) return direct;
  // "Iran (Islamic Republic of)" and "Korea, North" style names with extra words.
  const withoutParens = countryKey(trimmed.replace(/\(.*?\)/g, " "));
  return CODE_BY_NAME.get(withoutParens);
}

/** True when the normalised word names a country (or its adjective), so it is weak evidence of identity. */
export function isCountryWord(word: string): boolean {
  return COUNTRY_WORDS.has(word);
}
