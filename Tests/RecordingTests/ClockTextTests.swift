import Recording
import Testing

@Suite("A recording's time as a clock shows it")
struct ClockTextTests {
    @Test(arguments: [(0, "0:00"), (7, "0:07"), (65, "1:05"), (754, "12:34"), (3723, "1:02:03"), (-3, "0:00")])
    func spelled(seconds: Int, expected: String) {
        #expect(clockText(seconds: seconds) == expected)
    }
}
