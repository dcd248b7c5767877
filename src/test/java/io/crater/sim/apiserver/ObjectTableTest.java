package io.crater.sim.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The label index follows every version of an object: kept when its labels stay, moved when they change. */
class ObjectTableTest {

    static KubeStore.Entry entry(String key, long revision, Map<String, String> labels) {
        return new KubeStore.Entry(key, revision, "{}", labels, null);
    }

    static List<String> with(ObjectTable table, String selector) {
        List<String> keys = new ArrayList<>();
        table.candidates(null, Selectors.labels(selector), null).forEach(e -> keys.add(e.key()));
        return keys;
    }

    @Test
    void theIndexFollowsEachVersionsLabels() {
        ObjectTable table = new ObjectTable();
        KubeStore.Entry first = entry("ns/a", 1, Map.of("tier", "web"));
        table.put(first, null);
        table.put(entry("ns/b", 2, Map.of("tier", "web")), null);
        assertThat(with(table, "tier=web")).containsExactly("ns/a", "ns/b");

        KubeStore.Entry same = entry("ns/a", 3, Map.of("tier", "web"));
        table.put(same, first);
        assertThat(with(table, "tier=web")).containsExactly("ns/a", "ns/b");
        assertThat(table.objects.get("ns/a").revision()).isEqualTo(3);

        KubeStore.Entry moved = entry("ns/a", 4, Map.of("tier", "db", "team", "x"));
        table.put(moved, same);
        assertThat(with(table, "tier=web")).containsExactly("ns/b");
        assertThat(with(table, "tier=db")).containsExactly("ns/a");
        assertThat(with(table, "team in (x, y)")).containsExactly("ns/a");

        table.put(entry("ns/a", 5, Map.of()), moved);
        assertThat(with(table, "tier=db")).isEmpty();
        assertThat(with(table, "team=x")).isEmpty();

        table.remove("ns/b");
        assertThat(with(table, "tier=web")).isEmpty();
    }
}
