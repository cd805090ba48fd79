/// ISO 3166-1 alpha-3 codes and the ICAO 9303 additions (D<< for Germany, British variants,
/// UN and EU documents, stateless/refugee codes, other issuing organisations, and UTO, the
/// specimen state "Utopia"). An MRZ issuer or nationality outside this list is a misreading,
/// not a country.
enum CountryCodes {
    static let all: Set<String> = [
        "ABW", "AFG", "AGO", "AIA", "ALA", "ALB", "AND", "ARE", "ARG", "ARM", "ASM", "ATA", "ATF", "ATG", "AUS",
        "AUT", "AZE", "BDI", "BEL", "BEN", "BES", "BFA", "BGD", "BGR", "BHR", "BHS", "BIH", "BLM", "BLR", "BLZ",
        "BMU", "BOL", "BRA", "BRB", "BRN", "BTN", "BVT", "BWA", "CAF", "CAN", "CCK", "CHE", "CHL", "CHN", "CIV",
        "CMR", "COD", "COG", "COK", "COL", "COM", "CPV", "CRI", "CUB", "CUW", "CXR", "CYM", "CYP", "CZE", "D<<",
        "DEU", "DJI", "DMA", "DNK", "DOM", "DZA", "ECU", "EGY", "ERI", "ESH", "ESP", "EST", "ETH", "EUE", "FIN",
        "FJI", "FLK", "FRA", "FRO", "FSM", "GAB", "GBD", "GBN", "GBO", "GBP", "GBR", "GBS", "GEO", "GGY", "GHA",
        "GIB", "GIN", "GLP", "GMB", "GNB", "GNQ", "GRC", "GRD", "GRL", "GTM", "GUF", "GUM", "GUY", "HKG", "HMD",
        "HND", "HRV", "HTI", "HUN", "IDN", "IMN", "IND", "IOT", "IRL", "IRN", "IRQ", "ISL", "ISR", "ITA", "JAM",
        "JEY", "JOR", "JPN", "KAZ", "KEN", "KGZ", "KHM", "KIR", "KNA", "KOR", "KWT", "LAO", "LBN", "LBR", "LBY",
        "LCA", "LIE", "LKA", "LSO", "LTU", "LUX", "LVA", "MAC", "MAF", "MAR", "MCO", "MDA", "MDG", "MDV", "MEX",
        "MHL", "MKD", "MLI", "MLT", "MMR", "MNE", "MNG", "MNP", "MOZ", "MRT", "MSR", "MTQ", "MUS", "MWI", "MYS",
        "MYT", "NAM", "NCL", "NER", "NFK", "NGA", "NIC", "NIU", "NLD", "NOR", "NPL", "NRU", "NZL", "OMN", "PAK",
        "PAN", "PCN", "PER", "PHL", "PLW", "PNG", "POL", "PRI", "PRK", "PRT", "PRY", "PSE", "PYF", "QAT", "REU",
        "RKS", "ROU", "RUS", "RWA", "SAU", "SDN", "SEN", "SGP", "SGS", "SHN", "SJM", "SLB", "SLE", "SLV", "SMR",
        "SOM", "SPM", "SRB", "SSD", "STP", "SUR", "SVK", "SVN", "SWE", "SWZ", "SXM", "SYC", "SYR", "TCA", "TCD",
        "TGO", "THA", "TJK", "TKL", "TKM", "TLS", "TON", "TTO", "TUN", "TUR", "TUV", "TWN", "TZA", "UGA", "UKR",
        "UMI", "UNA", "UNK", "UNO", "URY", "USA", "UTO", "UZB", "VAT", "VCT", "VEN", "VGB", "VIR", "VNM", "VUT",
        "WLF", "WSM", "XCC", "XES", "XMP", "XOM", "XPO", "XXA", "XXB", "XXC", "XXX", "YEM", "ZAF", "ZMB", "ZWE",
        // ICAO 9303-3's other issuing authorities: African Development Bank, Afreximbank, Council
        // of Europe, COMESA, ECOWAS, SADC.
        "XBA", "XIM", "XCE", "XCO", "XEC", "XDC",
    ]
}
