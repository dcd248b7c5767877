package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.job.HistoryCode;
import io.crater.notify.NotificationService;
import io.crater.policy.ReasonCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The codes the server emits (reasons, history entries, notification kinds) are the ones the console renders:
 * src/main/webui/src/i18n/reasonCodes.json must equal the server's enumerations (a Vitest test checks that every
 * code listed there has an en and a zh-CN rendering), and no code is made anywhere but from those enumerations.
 */
class ReasonCodesTest {

    static final Path FILE = Path.of("src/main/webui/src/i18n/reasonCodes.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    static Map<String, List<String>> enumerated() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        out.put("reasons", ReasonCode.codes());
        out.put("history", HistoryCode.codes());
        out.put("notifications", NotificationService.KINDS);
        return out;
    }

    @Test
    void theConsolesListIsTheServersEnumeration() throws IOException {
        Map<?, ?> committed = JSON.readValue(Files.readString(FILE), Map.class);
        String expected = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(enumerated());
        assertThat(committed)
                .as("%s must read (run the test, copy this):%n%s", FILE, expected)
                .isEqualTo(enumerated());
    }

    @Test
    void everyReasonMadeFromALiteralCodeIsEnumerated() throws IOException {
        Pattern literal = Pattern.compile("new (?:io\\.crater\\.policy\\.)?Reason\\(\\s*\"(\\w+)\"");
        assertThat(literal.matcher("new Reason(\"InsufficientCapacity\", \"no room\", Map.of())")
                        .find())
                .as("the scan recognises a reason made from a literal")
                .isTrue();
        // Reasons are made by ReasonCode.X.reason(...); a literal code anywhere must still be one of the list.
        assertThat(ReasonCode.codes()).containsAll(literals(literal));
    }

    @Test
    void everyNotificationKindMadeIsEnumerated() throws IOException {
        Set<String> found = literals(Pattern.compile("\\.notify\\(\\s*[^,;]+,\\s*\"([a-z.-]+)\""));
        assertThat(found).contains("job.idle-warning", "job.reclaimed", "job.time-limit", "approval.");
        // A literal ending in '.' is a prefix: "approval." + the decided state (approvals and rejections).
        found.stream()
                .filter(k -> !k.endsWith("."))
                .forEach(k -> assertThat(NotificationService.KINDS).contains(k));
        assertThat(NotificationService.KINDS).contains("approval.approved", "approval.rejected");
    }

    @Test
    void theCodesAreDistinct() {
        enumerated().forEach((group, codes) -> assertThat(codes).as(group).doesNotHaveDuplicates());
        assertThat(HistoryCode.codes()).doesNotContainAnyElementsOf(ReasonCode.codes());
    }

    private static Set<String> literals(Pattern p) throws IOException {
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = p.matcher(Files.readString(f));
                while (m.find()) {
                    found.add(m.group(1));
                }
            }
        }
        return found;
    }
}
