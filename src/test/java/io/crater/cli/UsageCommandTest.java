package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@code crater usage} words held and used device-hours, without a server. */
class UsageCommandTest {

    static final Messages EN = new Messages(Locale.ENGLISH);
    static final Messages ZH = new Messages(Locale.SIMPLIFIED_CHINESE);

    static Map<String, Object> report(Map<String, Object> accelerators) {
        return Map.of("currency", "points", "rows", List.of(), "accelerators", accelerators);
    }

    static Map<String, Object> accelerators(double held, double measured, double used, Double efficiency) {
        Map<String, Object> a = new HashMap<>();
        a.put("held", held);
        a.put("measured", measured);
        a.put("used", used);
        a.put("efficiency", efficiency);
        a.put("idleCostMicros", 7_200_000L);
        return a;
    }

    @Test
    void theAcceleratorLineGivesHeldUsedUnknownEfficiencyAndIdleCost() {
        Map<String, Object> r = report(accelerators(2.0, 1.8, 1.08, 0.6));
        assertThat(UsageCommand.acceleratorLine(EN, r))
                .isEqualTo("Accelerators: 2.00 device-hours held, 1.08 used, 0.20 without utilisation samples;"
                        + " efficiency 60.0 %; idle held devices cost 7.20 points");
        assertThat(UsageCommand.acceleratorLine(ZH, r)).contains("占用 2.00 卡时", "利用效率 60.0 %");
        assertThat(UsageCommand.acceleratorLine(EN, report(accelerators(3.0, 0, 0, null))))
                .isEqualTo("Accelerators: 3.00 device-hours held, none with utilisation samples yet");
        assertThat(UsageCommand.acceleratorLine(EN, report(accelerators(0, 0, 0, null))))
                .as("no accelerator held: no line")
                .isNull();
    }

    @Test
    void theWaitLineGivesTheJobsAndTheirMeanAndP90Wait() {
        Map<String, Object> r =
                Map.of("waits", List.of(Map.of("key", "", "jobs", 2, "meanSeconds", 60.0, "p90Seconds", 84.0)));
        assertThat(UsageCommand.waitLine(EN, r))
                .isEqualTo("Jobs admitted: 2; they waited " + Values.duration(java.time.Duration.ofSeconds(60))
                        + " on average, " + Values.duration(java.time.Duration.ofSeconds(84))
                        + " at the 90th percentile");
        assertThat(UsageCommand.waitLine(EN, Map.of("waits", List.of())))
                .as("nobody admitted: no line")
                .isNull();
    }

    @Test
    void rowsShowUsedAndEfficiencyOnlyWhereTheyApply() {
        Map<String, Object> gpu = new HashMap<>(Map.of("used", 1.234, "efficiency", 0.6154));
        Map<String, Object> cpu = new HashMap<>();
        cpu.put("used", null);
        cpu.put("efficiency", null);
        List<Output.Column> columns = UsageCommand.columns(EN, "points");
        assertThat(columns.get(3).value().apply(gpu)).isEqualTo("1.23");
        assertThat(columns.get(4).value().apply(gpu)).isEqualTo("61.5 %");
        assertThat(columns.get(3).value().apply(cpu)).isEqualTo("-");
        assertThat(columns.get(4).value().apply(cpu)).isEqualTo("-");
    }
}
