package io.crater.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The benchmark report: figures beside anchors, lower limits and bars, and an honest verdict on each bar. */
class ReportTest {

    @Test
    void aFigureStandsBesideItsLimitAndItsBarSaysByHowMuchItMisses() {
        List<String> table = Report.table(Map.of(
                "trace.baseline.wall", 266.9,
                "trace.baseline.lower", 66.0,
                "api.submissions.rate", 234.0,
                "interactive.terminals.silent", 0.0,
                "files.api.up.ratio", 3.48));
        assertThat(table)
                .contains(
                        "| Kueue baseline trace (15,000 jobs, 30 queues), wall | 267 s = 4.04 × the limit | Kueue 351 s"
                                + " | 66 s | ≤ 99 s | no, by 168 s |",
                        "| submissions accepted alone, 16 clients | 234/s | Slurm ~1,000/s | — | ≥ 1,000/s | no, by"
                                + " 766/s |",
                        "| terminals that never showed their first output, of 2,000 (-Dbench.terminals) | 0 |"
                                + " OpenSSH: 0 | — | ≤ 0 | yes |",
                        "| 1 GiB up through the file API | 3.48 × cp | cp on the same disk | — | — | — |")
                .last()
                .isEqualTo("bars met: 1 of 3 measured in this run");
        assertThat(String.join("\n", table)).doesNotContain("large-scale", "job list");
    }

    @Test
    void onlyKeyTabNumberLinesAreFiguresAndTheLastValueOfAKeyWins() {
        assertThat(Report.read(List.of("a\t1.5", "garbage", "b\tnot-a-number", "a\t2", "c\t3\textra")))
                .containsExactly(Map.entry("a", 2.0));
    }
}
