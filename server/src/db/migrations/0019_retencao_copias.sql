-- How many days the phones keep a copy of what they sent of this project (issue 39): 7 by default, 1 to 90 on the
-- project form (RETENCAO_COPIAS_DIAS* in domain/src/constants.ts). The bounds hold here too, so no phone is ever told
-- to keep its copies for no days at all.
ALTER TABLE projetos ADD COLUMN retencao_copias_dias integer NOT NULL DEFAULT 7
  CHECK (retencao_copias_dias BETWEEN 1 AND 90);
