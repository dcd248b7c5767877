package io.crater.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The endpoint's pure rules: which origins may call, which session ids verify, which arguments fit a tool. */
class McpRulesTest {

    static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes();
    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @ParameterizedTest(name = "{0} to {1} -> {2}")
    @CsvSource(
            nullValues = "-",
            value = {
                "-                          | crater.example.org     | true",
                "https://crater.example.org | crater.example.org     | true",
                "https://crater.example.org | crater.example.org:443 | true",
                "http://127.0.0.1:8080      | 127.0.0.1:8080         | true",
                "http://127.0.0.1:8081      | 127.0.0.1:8080         | false",
                "https://evil.example       | crater.example.org     | false",
                "null                       | crater.example.org     | false",
                "https://console.example    | crater.internal:8080   | true",
                "http://console.example     | crater.internal:8080   | false"
            },
            delimiter = '|')
    void originsOfTheServerOrConfiguredOnly(String origin, String host, boolean allowed) {
        assertThat(McpOrigins.allowed(origin, host, List.of("https://console.example/")))
                .isEqualTo(allowed);
    }

    @Test
    void aSessionIdVerifiesOnlyAsSignedAndUntilItExpires() {
        String id = McpSessions.sign(KEY, 42, "2025-06-18", NOW.plusSeconds(60), "abc123");
        McpSessions.Session s = McpSessions.verify(KEY, id, NOW);
        assertThat(s).isEqualTo(new McpSessions.Session(42, "2025-06-18", NOW.plusSeconds(60), "abc123"));
        assertThat(McpSessions.verify(KEY, id, NOW.plusSeconds(60)))
                .as("expired")
                .isNull();
        assertThat(McpSessions.verify(KEY, id.replaceFirst("^42\\.", "43."), NOW))
                .as("another user")
                .isNull();
        assertThat(McpSessions.verify("another key, 32 bytes long......".getBytes(), id, NOW))
                .isNull();
        assertThat(McpSessions.verify(KEY, "garbage", NOW)).isNull();
        assertThat(McpSessions.verify(KEY, null, NOW)).isNull();
    }

    @Test
    void argumentsAreCheckedAgainstTheToolsInputSchema() throws Exception {
        var schema = McpCatalogue.find("tail_job_log").orElseThrow().inputSchema();
        ObjectMapper json = new ObjectMapper();
        assertThat(Schemas.violations(schema, json.readTree("{\"id\":\"j1\",\"lines\":10}")))
                .isEmpty();
        assertThat(Schemas.violations(schema, json.readTree("{\"lines\":0,\"pod\":5,\"x\":true}")))
                .containsExactlyInAnyOrder(
                        "argument 'id' is required",
                        "argument 'lines' must be between 1 and 5000",
                        "argument 'pod' must be a string",
                        "unknown argument 'x'");
        assertThat(Schemas.violations(schema, json.readTree("[1]"))).containsExactly("arguments must be an object");
        assertThat(Schemas.violations(
                        McpCatalogue.find("list_jobs").orElseThrow().inputSchema(),
                        json.readTree("{\"kind\":\"notebook\",\"mine\":\"yes\"}")))
                .containsExactlyInAnyOrder(
                        "argument 'kind' must be one of [\"jupyter\",\"webide\",\"custom\",\"pytorch\",\"inference\","
                                + "\"tensorboard\",\"download\",\"imagebuild\"]",
                        "argument 'mine' must be true or false");
    }

    @Test
    void everyToolHasSchemasAndAdminToolsAreHiddenFromOthers() {
        assertThat(McpCatalogue.visibleTo(false))
                .extracting(McpCatalogue.Tool::name)
                .doesNotContain("cluster_nodes", "list_all_jobs");
        assertThat(McpCatalogue.visibleTo(true)).hasSize(McpCatalogue.TOOLS.size());
        for (McpCatalogue.Tool t : McpCatalogue.TOOLS) {
            assertThat(t.name()).matches("[a-z]+(_[a-z]+)*");
            assertThat(t.outputSchema().path("properties").has("problem"))
                    .as(t.name())
                    .isTrue();
            assertThat(t.inputSchema().path("additionalProperties").asBoolean(true))
                    .as(t.name())
                    .isFalse();
        }
    }
}
