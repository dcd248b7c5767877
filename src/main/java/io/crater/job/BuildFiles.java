package io.crater.job;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * What an image build job needs beside its spec, kept by the feature that starts builds ({@code io.crater.images},
 * which implements this, so no import climbs from jobs to the catalogue): the Dockerfile, the image pushed, the
 * builder, and the name of the owner's registry credential the push logs in with.
 */
public interface BuildFiles {

    /**
     * One build: {@code builder} is {@code buildkit} or {@code kaniko}; {@code plainHttp} when the destination's
     * registry is reached over plain HTTP; {@code registryHost} the host the login is for; {@code credential} null
     * when the push goes without a login.
     */
    record Build(
            String builder,
            String dockerfile,
            String destination,
            String registryHost,
            boolean plainHttp,
            String credential) {}

    /** The build the job with this public id runs, in the caller's session; empty when it runs none. */
    Uni<Optional<Build>> of(String jobPublicId);
}
