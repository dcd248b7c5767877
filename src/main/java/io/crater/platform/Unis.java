package io.crater.platform;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/** Reactive steps over many items. */
public final class Unis {

    private Unis() {}

    /**
     * Runs {@code step} for each item, one after another, on the caller's context. Unlike a chain of
     * {@code flatMap}s built in a loop, the depth of the stack does not grow with the number of items, so
     * thousands of steps that complete at once cannot overflow it.
     */
    public static <T> Uni<Void> sequentially(Iterable<T> items, Function<T, Uni<?>> step) {
        return Multi.createFrom()
                .iterable(items)
                .onItem()
                .transformToUniAndConcatenate(item -> step.apply(item).replaceWith(Boolean.TRUE))
                .collect()
                .last()
                .replaceWithVoid();
    }
}
