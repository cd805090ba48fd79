import Testing
@testable import KordantOCR

/// A deed's party named beside its label and again over its signature line, the two readings a
/// letter apart: the surer one is kept, for review (`FieldExtractor.partiesAgreed`).
@Suite struct PartyAgreementTests {
    static func deed(label: String, labelConfidence: Double, signature: String, signatureConfidence: Double) -> [String: Field] {
        var page = WordPage()
        page.line("WARRANTY DEED", y: 50)
        page.line("Recording Date: 03/14/2019", y: 100)
        page.line("Grantor: " + label, y: 150, confidence: labelConfidence)
        page.line("Grantee: ELENI GEORGIOU", y: 200)
        page.line("The Grantor conveys and warrants the property described below to the Grantee.", y: 250)
        page.line(signature + ", Grantor", y: 400, confidence: signatureConfidence)
        return FieldExtractor.deed(page.lines)
    }

    @Test func aLetterLostBesideTheLabelIsReadOverTheSignature() {
        let f = Self.deed(label: "PMCHANOK BUNNAG", labelConfidence: 80, signature: "PIMCHANOK BUNNAG", signatureConfidence: 93)
        #expect(f["grantor"]?.value.string == "PIMCHANOK BUNNAG")
        #expect(f["grantor"]?.needsReview == true)
        // Read more surely beside its label, that reading stays, for review all the same.
        let g = Self.deed(label: "PIMCHANOK BUNNAG", labelConfidence: 93, signature: "PMCHANOK BUNNAG", signatureConfidence: 80)
        #expect(g["grantor"]?.value.string == "PIMCHANOK BUNNAG")
        #expect(g["grantor"]?.needsReview == true)
    }

    @Test func theSameNameTwiceOrAnotherPersonLeavesItSure() {
        let same = Self.deed(label: "PIMCHANOK BUNNAG", labelConfidence: 93, signature: "Pimchanok Bunnag", signatureConfidence: 93)
        #expect(same["grantor"]?.value.string == "PIMCHANOK BUNNAG")
        #expect(same["grantor"]?.needsReview == false)
        // A second grantor signing on a line of their own is someone else.
        let other = Self.deed(label: "PIMCHANOK BUNNAG", labelConfidence: 93, signature: "SIOBHAN MCCARTHY", signatureConfidence: 93)
        #expect(other["grantor"]?.value.string == "PIMCHANOK BUNNAG")
        #expect(other["grantor"]?.needsReview == false)
        #expect(other["grantee"]?.value.string == "ELENI GEORGIOU")
    }
}
