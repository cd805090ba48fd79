/// Label synonyms per field, as `PageLayout.key` word keys ("E-mail Address" → "email address").
/// Longer synonyms win over shorter ones at the same place ("date of birth" over "date").
enum Vocabulary {
    static let deed: [(field: String, keys: [String])] = [
        ("grantor", ["grantor", "grantors", "grantor name", "grantor names", "grantor s", "seller", "sellers", "transferor",
                     "transferors", "conveyed by", "vendor", "party of the first part"]),
        ("grantee", ["grantee", "grantees", "grantee name", "grantee names", "grantee s", "buyer", "buyers", "transferee",
                     "transferees", "conveyed to", "vendee", "purchaser", "purchasers", "party of the second part"]),
        ("parcel_number", ["apn", "parcel", "parcel no", "parcel number", "parcel id", "assessors parcel number", "assessors parcel no",
                           "assessor parcel number", "tax parcel number", "tax parcel no", "tax parcel id", "pin", "parcel identification number",
                           "tax id", "tax map number"]),
        ("recording_date", ["recording date", "date recorded", "recorded on", "recorded", "filed for record", "record date",
                            "date of recording", "filed on", "date filed"]),
        ("instrument_number", ["instrument no", "instrument number", "instrument", "document no", "document number", "doc no", "doc",
                               "doc number", "reception no", "reception number", "recording no", "recording number", "file no", "file number"]),
        ("consideration", ["consideration", "purchase price", "sale price", "sales price", "amount paid", "total consideration", "price",
                           "consideration paid", "amount of consideration"]),
        ("property_address", ["property address", "property location", "premises", "site address", "situs address", "commonly known as",
                              "address of property", "property situs", "location of property", "street address of property"]),
        ("county", ["county"]),
        ("state", ["state"]),
    ]

    static let optout: [(field: String, keys: [String])] = [
        ("data_broker", ["to", "company", "data broker", "broker", "recipient", "attn", "attention", "business name"]),
        ("full_name", ["full name", "name", "your name", "requester name", "name of requester", "consumer name", "legal name",
                       "requestor name", "applicant name", "full legal name", "name of consumer", "consumer"]),
        ("email", ["email", "email address", "contact email", "your email", "e mail", "e mail address", "email id", "contact e mail"]),
        ("phone", ["phone", "telephone", "phone number", "tel", "mobile", "contact phone", "cell", "phone no", "telephone number",
                   "mobile number", "daytime phone", "cell phone", "mobile phone", "home phone", "telephone no", "best number"]),
        ("street_address", ["street address", "address", "mailing address", "street", "home address", "residential address",
                            "current address", "address line 1", "residence address", "residence"]),
        ("city", ["city", "citytown", "town", "city town", "city or town"]),
        ("state", ["state", "state province", "stateprovince"]),
        ("zip", ["zip code", "zip", "postal code", "zipcode", "zip postal code", "postcode", "zippostal code", "zippostal"]),
        ("date_of_birth", ["date of birth", "dob", "birth date", "born", "birthdate", "d o b", "birthday"]),
        ("listing_url", ["listing url", "profile url", "url of listing", "link to profile", "web address of listing", "page url", "url",
                         "listing", "link", "profile link", "listing link", "web address", "url of the listing", "profile address"]),
        ("request_id", ["request id", "reference no", "ref", "case number", "ticket", "reference", "request number", "ticket number",
                        "reference number", "case no", "case id", "request no", "ref no", "confirmation number", "confirmation no", "confirmation",
                        "confirmation code", "tracking number", "request reference", "case reference", "ticket no"]),
        ("date", ["date", "date of request", "request date", "dated", "submitted", "date sent", "date submitted", "submission date", "request received", "date received"]),
    ]

    static let id: [(field: String, keys: [String])] = [
        ("surname", ["surname", "last name", "family name", "ln", "nom", "surnames", "apellidos"]),
        ("given_names", ["given names", "given name", "first name", "first names", "fn", "forenames", "prenoms", "given name s"]),
        ("date_of_birth", ["date of birth", "dob", "birth date", "born", "birthdate"]),
        ("sex", ["sex", "gender"]),
        ("nationality", ["nationality", "nat", "citizenship"]),
        ("document_number", ["document no", "document number", "passport no", "passport number", "card no", "card number", "id no",
                             "id number", "dl", "dl no", "dln", "lic", "license no", "licence no", "license number", "lic no", "permit no",
                             "permit number", "residence permit no", "id card no", "identity card no"]),
        ("expiry_date", ["date of expiry", "expiry date", "expires", "exp", "expiry", "valid until", "expiration date",
                         "date of expiration", "expiration"]),
    ]

    static func forKind(_ kind: DocumentKind) -> [(field: String, keys: [String])] {
        switch kind {
        case .deed: deed
        case .optout: optout
        case .id: id
        case .unknown: []
        }
    }
}
