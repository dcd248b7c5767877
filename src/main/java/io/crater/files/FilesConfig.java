package io.crater.files;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;

/** Settings of the file spaces and their API (docs/storage.md). */
@ConfigMapping(prefix = "crater.files")
public interface FilesConfig {

    /**
     * Where Crater sees the spaces ({@code users/<slug>}, {@code accounts/<slug>}, {@code public}): the root of the
     * shared claim, the same folder SFTP serves from.
     */
    @WithDefault("${crater.ssh.spaces-root:${crater.home}/spaces}")
    Path spacesRoot();

    /** How long deleted entries stay in their space's trash before the sweep removes them. */
    @WithDefault("7")
    int trashDays();

    /** How often the sweep looks for expired trash. */
    @WithDefault("1h")
    Duration sweepEvery();

    /** How long a space's measured usage is trusted before it is walked again (the API's own writes keep it exact). */
    @WithDefault("10m")
    Duration usageFor();

    /** The quotas of each kind of space (-1: unlimited). */
    Quotas quota();

    /** Resumable uploads (tus). */
    Tus tus();

    /** Resumable uploads: how big, how long they are kept unfinished, how often expired ones are swept. */
    interface Tus {
        /** The largest upload accepted, in bytes (advertised as {@code Tus-Max-Size}). */
        @WithDefault("1099511627776")
        long maxSize();

        /** How long an unfinished upload is kept (its {@code Upload-Expires}) before the sweep removes it. */
        @WithDefault("24h")
        Duration expireAfter();

        /** How often the sweep looks for expired uploads. */
        @WithDefault("10m")
        Duration sweepEvery();

        /**
         * How long a PATCH's hold on an upload lasts without being renewed: a PATCH renews it every quarter of this
         * while its body flows, so only a PATCH whose replica died (or lost the database) is taken over after it.
         */
        @WithDefault("20s")
        Duration lockFor();
    }

    /** Default quotas per kind of space; a platform admin may set an account's own. */
    interface Quotas {
        /** Bytes in a user's own space. */
        @WithDefault("53687091200")
        long userBytes();

        /** Files and folders in a user's own space. */
        @WithDefault("1000000")
        long userFiles();

        /** Bytes in an account's space. */
        @WithDefault("536870912000")
        long accountBytes();

        /** Files and folders in an account's space. */
        @WithDefault("5000000")
        long accountFiles();

        /** Bytes in the public space. */
        @WithDefault("107374182400")
        long publicBytes();

        /** Files and folders in the public space. */
        @WithDefault("1000000")
        long publicFiles();
    }
}
