package io.crater.downloads;

import io.crater.identity.Caller;
import io.crater.policy.HubDownloads;
import java.util.Map;

/** A download's view from its row, its progress and the names of its owner and account. */
final class DownloadViewing {

    private DownloadViewing() {}

    static DownloadViews.Download view(
            DownloadQueries.DownloadRow r,
            HubDownloads.Progress p,
            Map<Long, String> names,
            Map<Long, String> slugs,
            Caller caller) {
        return new DownloadViews.Download(
                r.publicId(),
                r.kind(),
                r.hub(),
                r.endpoint(),
                r.repository(),
                r.revision(),
                r.sha(),
                r.include(),
                r.exclude(),
                r.credential(),
                r.name(),
                names.get(r.ownerId()),
                r.space(),
                r.path(),
                r.visibility(),
                r.accountId() == null ? null : slugs.get(r.accountId()),
                r.state(),
                r.reason(),
                r.message(),
                r.warnings(),
                p.bytesDone(),
                p.bytesTotal(),
                p.filesDone(),
                p.filesTotal(),
                p.percent(),
                r.jobPublicId(),
                r.assetPublicId(),
                false,
                r.ownerId() == caller.userId() || caller.platformAdmin(),
                r.createdAt(),
                r.updatedAt(),
                r.finishedAt());
    }
}
