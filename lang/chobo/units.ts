/**
 * Which units are money (docs/design/chobo.md#units-and-amounts): only money units may be marked
 * `incl_tax`/`excl_tax`.
 * @module
 */

// ISO 4217 active alphabetic codes.
const ISO_4217 = new Set(
  ("AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP " +
    "BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB " +
    "EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY " +
    "KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR " +
    "MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB " +
    "RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD " +
    "TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWG ZWL")
    .split(" "),
);

/** True when `name` names a currency: an ISO 4217 code, its hundredth (`USDc`), `円` or `銭`. */
export function isCurrency(name: string): boolean {
  if (name === "円" || name === "銭") return true;
  if (ISO_4217.has(name)) return true;
  return name.length === 4 && name.endsWith("c") && ISO_4217.has(name.slice(0, 3));
}

/**
 * True when a unit of this name and scale is money: a currency at scale 0, or a currency other
 * than the yen at scale 2 (its hundredth; the yen's hundredth is the unit `銭`).
 */
export function isMoney(name: string, scale: number): boolean {
  if (!isCurrency(name)) return false;
  return scale === 0 || (scale === 2 && name !== "円" && name !== "JPY");
}
