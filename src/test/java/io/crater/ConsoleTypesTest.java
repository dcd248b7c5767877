package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleTypesTest {

    @Test
    void readsTopLevelFieldsSkippingCommentsAndInlineObjects() {
        List<ConsoleTypes.Type> types = ConsoleTypes.parse(
                "x.ts",
                List.of(
                        "/** A job. */",
                        "export interface Job {",
                        "  /** its id: not a field */",
                        "  id: string;",
                        "  /**",
                        "   * spans: lines",
                        "   */",
                        "  limits?: { cpu: string; memory?: string };",
                        "  pods: {",
                        "    name: string;",
                        "  }[];",
                        "  // owner: a comment",
                        "  readonly state: 'Queued' | 'Running';",
                        "}",
                        "export type Kind = 'a' | 'b';",
                        "export interface Page<T> {",
                        "  items: T[];",
                        "}",
                        "export interface Detail extends Job {",
                        "  spec: Record<string, unknown>;",
                        "}"));
        assertThat(types).extracting(ConsoleTypes.Type::name).containsExactly("Job", "Page", "Detail");
        assertThat(types.get(0).fields()).containsExactly("id", "limits", "pods", "state");
        assertThat(types.get(1).fields()).containsExactly("items");
        Map<String, ConsoleTypes.Type> byName = Map.of("Job", types.get(0), "Detail", types.get(2));
        assertThat(types.get(2).parent()).isEqualTo("Job");
        assertThat(ConsoleTypes.allFields(byName, types.get(2)))
                .containsExactlyInAnyOrder("spec", "id", "limits", "pods", "state");
    }
}
