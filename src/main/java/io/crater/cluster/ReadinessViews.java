package io.crater.cluster;

import io.crater.policy.ClusterReadiness;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The readiness report as the API shows it (docs/readiness.md). */
public final class ReadinessViews {

    private ReadinessViews() {}

    /** A shortfall: its stable code and the facts behind it. */
    @Schema(name = "ReadinessReason")
    public record Reason(String code, Map<String, String> args) {}

    /** One check: {@code ok}, {@code degraded} or {@code unknown}, with its reasons. */
    @Schema(name = "ReadinessCheck")
    public record Check(String name, String state, List<Reason> reasons) {}

    /** The report: {@code ok} or {@code degraded}, when it was taken, each check. */
    @Schema(name = "ReadinessReport")
    public record Report(String state, Instant checkedAt, List<Check> checks) {}

    /** The last report; {@code report} null before the first. */
    @Schema(name = "ReadinessLast")
    public record Last(Report report) {}

    static Report of(ClusterReadiness.Report r) {
        return r == null
                ? null
                : new Report(
                        r.state().name(),
                        r.checkedAt(),
                        r.checks().stream()
                                .map(c -> new Check(
                                        c.name(),
                                        c.state().name(),
                                        c.reasons().stream()
                                                .map(x -> new Reason(x.code(), x.args()))
                                                .toList()))
                                .toList());
    }
}
