-- The catalogue follows the nodes: administrators add, retire and delete models through the API.
-- A model is a resource name plus, where one resource carries several models, the node label that tells them
-- apart; a resource that names one model by itself (a MIG profile, Hygon's DCU, Cambricon's MLU) needs no label.
ALTER TABLE accelerator_models DROP CONSTRAINT accelerator_models_resource_label_key_label_value_key;
ALTER TABLE accelerator_models ALTER COLUMN label_key DROP NOT NULL;
ALTER TABLE accelerator_models ALTER COLUMN label_value DROP NOT NULL;
ALTER TABLE accelerator_models ADD CONSTRAINT accelerator_models_label_pair
    CHECK ((label_key IS NULL) = (label_value IS NULL));
-- Memory of one card (or slice) in MiB; for a shared-GPU model (HAMi) it is what each pod asks of
-- memory_resource (nvidia.com/gpumem), per device.
ALTER TABLE accelerator_models ADD COLUMN memory_mib BIGINT CHECK (memory_mib > 0);
ALTER TABLE accelerator_models ADD COLUMN memory_resource TEXT;
ALTER TABLE accelerator_models ADD CONSTRAINT accelerator_models_memory_resource_sized
    CHECK (memory_resource IS NULL OR memory_mib IS NOT NULL);
-- A retired model takes no new submissions or quota grants; its running jobs keep running and are billed.
ALTER TABLE accelerator_models ADD COLUMN retired_at TIMESTAMPTZ;
CREATE UNIQUE INDEX accelerator_models_mapping ON accelerator_models (
    resource, COALESCE(label_key, ''), COALESCE(label_value, ''), COALESCE(memory_resource, ''),
    COALESCE(CASE WHEN memory_resource IS NULL THEN NULL ELSE memory_mib END, 0));

UPDATE accelerator_models SET memory_mib = 81920 WHERE key = 'nvidia-a100-80gb';
UPDATE accelerator_models SET memory_mib = 81559 WHERE key = 'nvidia-h100-80gb';
UPDATE accelerator_models SET memory_mib = 24564 WHERE key = 'nvidia-rtx-4090';
UPDATE accelerator_models SET memory_mib = 65536 WHERE key = 'ascend-910b';
