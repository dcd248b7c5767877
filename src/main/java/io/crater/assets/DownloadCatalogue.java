package io.crater.assets;

import io.crater.files.FileTargets;
import io.crater.platform.Actor;
import io.crater.platform.AuditTrail;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * A verified download's catalogue entry: created with the download's name, visibility and account, {@code source} the
 * repository's address on the hub and {@code revision} the commit; an entry of that name the owner has at the same
 * place is updated instead. An entry of that name elsewhere fails the download ({@code AssetExists}).
 */
@ApplicationScoped
class DownloadCatalogue {

    @Inject
    AssetQueries assets;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    /** The entry's public id, or (null and) why there is none. */
    record Result(String asset, String reason, String message) {}

    /** In a transaction. */
    Uni<Result> enter(DownloadQueries.DownloadRow d, FileTargets.Inspected measured) {
        if (!measured.ok()) {
            return Uni.createFrom().item(new Result(null, "TargetGone", measured.refusal()));
        }
        FileTargets.Target t = measured.target();
        String publicId = AssetIds.next(d.kind());
        AssetQueries.AssetRow row = row(0, publicId, d, t, null, null);
        return assets.insert(row).flatMap(inserted -> {
            if (inserted.isPresent()) {
                return record("asset.create", d, publicId).replaceWith(new Result(publicId, null, null));
            }
            return assets.named(new AssetQueries.Viewer(d.ownerId(), true, List.of()), d.kind(), d.name(), d.ownerId())
                    .flatMap(found -> {
                        AssetQueries.AssetRow before = found.isEmpty() ? null : found.get(0);
                        if (before == null
                                || !before.space().equals(t.space())
                                || !before.path().equals(t.path())) {
                            return Uni.createFrom()
                                    .item(new Result(
                                            null,
                                            "AssetExists",
                                            "the owner has a " + d.kind() + " named '" + d.name()
                                                    + "' elsewhere already; the files are in " + t.path()));
                        }
                        AssetQueries.AssetRow updated =
                                row(before.id(), before.publicId(), d, t, before.description(), before.tags());
                        return assets.update(updated)
                                .call(x -> record("asset.update", d, before.publicId()))
                                .replaceWith(new Result(before.publicId(), null, null));
                    });
        });
    }

    private AssetQueries.AssetRow row(
            long id,
            String publicId,
            DownloadQueries.DownloadRow d,
            FileTargets.Target t,
            String description,
            String tags) {
        return new AssetQueries.AssetRow(
                id,
                publicId,
                d.kind(),
                d.name(),
                d.ownerId(),
                description == null ? "" : description,
                t.space(),
                t.path(),
                t.type(),
                t.sizeBytes(),
                t.files(),
                clock.instant(),
                "",
                source(d),
                d.sha(),
                d.visibility(),
                d.accountId(),
                tags == null ? AssetChecks.stored(List.of()) : tags,
                null,
                null);
    }

    /** The repository's page on the hub: {@code {endpoint}/{repo}}, {@code {endpoint}/datasets/{repo}} for a dataset. */
    static String source(DownloadQueries.DownloadRow d) {
        return HubClient.base(d.endpoint()) + (d.kind().equals("dataset") ? "/datasets/" : "/") + d.repository();
    }

    private Uni<Void> record(String action, DownloadQueries.DownloadRow d, String assetId) {
        return audit.record(
                        Actor.system(),
                        action,
                        d.kind(),
                        assetId,
                        null,
                        Map.of("name", d.name(), "space", d.space(), "path", d.path(), "download", d.publicId()))
                .replaceWithVoid();
    }
}
