package io.crater.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A usage report as CSV: its header, a row per group and resource, and each group's waits beside its rows. */
class UsageCsvTest {

    static final Instant FROM = Instant.parse("2026-11-01T00:00:00Z");
    static final Instant TO = Instant.parse("2026-12-01T00:00:00Z");

    @Test
    void eachRowCarriesItsGroupsWaitsAndAGroupWithoutAdmissionsHasNone() {
        UsageReports.Row gpu = new UsageReports.Row(
                "ana",
                "nvidia-a100-80gb",
                "device-hours",
                2.0,
                "20",
                20_000_000,
                1.8,
                1.08,
                0.2,
                0.6,
                "7.2",
                7_200_000L);
        UsageReports.Row cpu = new UsageReports.Row(
                "ana", "cpu", "core-hours", 4.0, "0.16", 160_000, null, null, null, null, null, null);
        UsageReports.Row other = new UsageReports.Row(
                "=cmd", "cpu", "core-hours", 1.0, "0.04", 40_000, null, null, null, null, null, null);
        UsageReports.Report report = new UsageReports.Report(
                "lab",
                FROM,
                TO,
                "user",
                "points",
                List.of(gpu, cpu, other),
                "20.2",
                20_200_000,
                null,
                List.of(new UsageReports.Wait("ana", 3, 42.5, 90.0)));
        List<String> lines = List.of(UsageReports.csv(report).split("\r\n"));
        assertThat(lines)
                .containsExactly(
                        "account,from,to,group,resource,unit,held,cost,currency,measured,used,unknown,efficiency,"
                                + "idle_cost,jobs,wait_mean_s,wait_p90_s",
                        "lab,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,ana,nvidia-a100-80gb,device-hours,2.0,20,points,"
                                + "1.8,1.08,0.2,0.6,7.2,3,42.5,90.0",
                        "lab,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,ana,cpu,core-hours,4.0,0.16,points,,,,,,3,42.5,90.0",
                        "lab,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,'=cmd,cpu,core-hours,1.0,0.04,points,,,,,,0,,");
    }
}
