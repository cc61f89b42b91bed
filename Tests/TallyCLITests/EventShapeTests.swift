import Testing
@testable import TallyCLI
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Event shapes", .tags(.postgresql))
struct EventShapeTests {
    @Test("an export line is the same object as the --json event shape, in the same key order")
    func exportLineMatchesJSONShape() throws {
        var factory = EventFactory()
        let event = factory.make(.todoCreated(TodoFields(title: "Tab\there \"quoted\" é", tags: ["a"], note: "x")), stream: "s")
        let line = EventLines.encode(event)
        #expect(try JSON.parse(line) == JSONShapes.event(event))
        #expect(line == JSONShapes.event(event).serialized(.compact))
    }

    @Test("every audit message has an English text")
    func catalog() {
        #expect(MessageID.allCases.filter { Language.english.template($0) == nil }.isEmpty)
    }
}
