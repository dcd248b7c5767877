package io.crater.downloads;

import io.crater.assets.DownloadedEntries;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.HubDownloads;
import java.util.ArrayList;
import java.util.List;

/** The checks on a download request that need nothing looked up: 400 {@code InvalidDownload} with every field's fault. */
final class DownloadChecks {

    private DownloadChecks() {}

    static DownloadService.Checked check(DownloadViews.CreateDownload req, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        String hub = req.hub() == null || req.hub().isBlank() ? "huggingface" : req.hub();
        String revision = req.revision() == null || req.revision().isBlank()
                ? HubDownloads.defaultRevision(hub)
                : req.revision().trim();
        HubDownloads.check(new HubDownloads.Wanted(
                        req.kind(), hub, req.repository(), revision, req.include(), req.exclude()))
                .forEach(v -> errors.add(new Problem.FieldError(v.field(), v.message())));
        if (req.credential() != null && !req.credential().matches("^[a-z0-9-]{1,40}$")) {
            errors.add(
                    new Problem.FieldError("credential", "a credential name: 1 to 40 lowercase letters, digits or -"));
        }
        if (req.path() == null || req.path().isBlank()) {
            errors.add(new Problem.FieldError("path", "required: the folder to download into"));
        }
        DownloadedEntries.Fields f = DownloadedEntries.check(req.name(), req.visibility(), req.account(), errors);
        if ("public".equals(f.visibility()) && !caller.platformAdmin()) {
            errors.add(new Problem.FieldError(
                    "visibility", "only platform admins publish entries outside the public space"));
        }
        if (!errors.isEmpty()) {
            throw invalid(errors);
        }
        String space = req.space() == null || req.space().isBlank()
                ? "user"
                : req.space().trim();
        return new DownloadService.Checked(req, hub, f, space, revision);
    }

    static ApiException invalid(List<Problem.FieldError> errors) {
        return ApiException.badRequest("InvalidDownload", "the download cannot be started as given", errors);
    }
}
