package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobLogsTest {

    @ParameterizedTest(name = "last {1} of ''{0}''")
    @CsvSource(
            delimiter = '|',
            value = {
                "a\\nb\\nc\\n | 2 | b\\nc\\n",
                "a\\nb\\nc\\n | 1 | c\\n",
                "a\\nb\\nc\\n | 3 | a\\nb\\nc\\n",
                "a\\nb\\nc\\n | 5 | a\\nb\\nc\\n",
                "a\\nb\\nc | 2 | b\\nc",
                "a\\n\\nc\\n | 2 | \\nc\\n",
                "'' | 3 | ''"
            })
    void archivedLogsHonourTailLines(String text, int n, String expected) {
        assertThat(JobLogs.lastLines(unescape(text), n)).isEqualTo(unescape(expected));
    }

    @org.junit.jupiter.api.Test
    void sixtyOneLinesTailedToFiveAreFive() {
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 61; i++) {
            log.append("line ").append(i).append('\n');
        }
        assertThat(JobLogs.lastLines(log.toString(), 5).lines())
                .containsExactly("line 57", "line 58", "line 59", "line 60", "line 61");
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n");
    }
}
