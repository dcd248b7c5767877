package io.crater.gpus;

import io.smallrye.mutiny.Uni;
import java.util.List;

/** Where the cards of the cluster and their readings come from; a failure fails the {@link Uni} with the reason. */
interface CardSource {

    /** Every card the exporters report now. */
    Uni<List<CardReading>> cards();
}
