package io.crater.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Names that never change are asked for once; only the ids not seen yet reach the database. */
class ImmutableNamesTest {

    final List<List<Long>> asked = new ArrayList<>();

    Uni<Map<Long, String>> load(List<Long> ids) {
        asked.add(ids);
        Map<Long, String> out = new HashMap<>();
        // Id 99 does not exist: nothing comes back for it, so it is asked for again next time.
        ids.stream().filter(id -> id != 99).forEach(id -> out.put(id, "n" + id));
        return Uni.createFrom().item(out);
    }

    @Test
    void onlyTheUnseenIdsAreLoaded() {
        ImmutableNames names = new ImmutableNames(100);
        assertThat(names.of(List.of(1L, 2L, 2L), this::load).await().indefinitely())
                .isEqualTo(Map.of(1L, "n1", 2L, "n2"));
        assertThat(names.of(List.of(2L, 3L, 99L), this::load).await().indefinitely())
                .isEqualTo(Map.of(2L, "n2", 3L, "n3"));
        assertThat(names.of(List.of(1L, 2L, 3L), this::load).await().indefinitely())
                .hasSize(3);
        assertThat(names.of(List.of(99L), this::load).await().indefinitely()).isEmpty();
        assertThat(asked).containsExactly(List.of(1L, 2L), List.of(3L, 99L), List.of(99L));
    }

    @Test
    void pastItsCapacityItForgetsAndLearnsAgain() {
        ImmutableNames names = new ImmutableNames(2);
        names.of(List.of(1L, 2L), this::load).await().indefinitely();
        names.of(List.of(3L), this::load).await().indefinitely();
        names.of(List.of(1L), this::load).await().indefinitely();
        assertThat(asked).containsExactly(List.of(1L, 2L), List.of(3L), List.of(1L));
    }
}
