package io.crater.job;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import java.util.Map;

/** The changes a resubmission makes to a job's spec. */
final class ResubmitChanges {

    private ResubmitChanges() {}

    /** The spec with the changes put in (values as JSON gives them). */
    static JobViews.SubmitJob changed(JobViews.SubmitJob spec, Map<String, Object> changes) {
        if (changes.isEmpty()) {
            return spec;
        }
        ObjectNode tree = (ObjectNode) Json.tree(spec);
        changes.forEach((field, value) -> {
            ObjectNode at = tree;
            String name = field;
            if (field.startsWith("resources.")) {
                if (!(tree.get("resources") instanceof ObjectNode)) {
                    tree.putObject("resources");
                }
                at = (ObjectNode) tree.get("resources");
                name = field.substring("resources.".length());
            }
            at.set(name, Json.tree(value));
        });
        try {
            return Json.convert(tree, JobViews.SubmitJob.class);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("InvalidChanges", "the changes do not fit the job: " + e.getMessage(), null);
        }
    }
}
