import Testing

@testable import WebImage

@Suite("Preview schedule (progressiveInterval)")
struct PreviewScheduleTests {
    @Test func thePreviewsOfADownloadAreAtLeastOneIntervalApart() {
        var schedule = PreviewSchedule(interval: .milliseconds(100))
        #expect(schedule.isDue(at: .zero))
        schedule.delivered(at: .zero)
        #expect(!schedule.isDue(at: .milliseconds(99)))
        #expect(schedule.isDue(at: .milliseconds(100)))
        schedule.delivered(at: .milliseconds(130))
        #expect(!schedule.isDue(at: .milliseconds(229)))
        #expect(schedule.isDue(at: .milliseconds(230)))
    }

    @Test func aZeroIntervalIsAlwaysDue() {
        var schedule = PreviewSchedule(interval: .zero)
        schedule.delivered(at: .seconds(1))
        #expect(schedule.isDue(at: .seconds(1)))
    }
}
