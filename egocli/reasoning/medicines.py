"""Common medicines by what they are for, so that 'my blood pressure tablet' finds 'Lisinopril 10 mg' and
'an antibiotic' finds 'amoxicillin': the people this tool is for often ask by purpose while a packet, a note
or a pharmacist names the drug. Generic names (and a few common brand names) in everyday use; each kind is
the words people use for it."""

from __future__ import annotations

KINDS: dict[str, tuple[str, ...]] = {
    "blood pressure": ("lisinopril", "ramipril", "enalapril", "perindopril", "amlodipine", "nifedipine", "losartan",
                       "candesartan", "valsartan", "irbesartan", "bisoprolol", "atenolol", "metoprolol",
                       "propranolol", "doxazosin", "indapamide", "bendroflumethiazide", "hydrochlorothiazide"),
    "antibiotic": ("amoxicillin", "amoxicilline", "amoxil", "penicillin", "flucloxacillin", "amoxiclav",
                   "augmentin", "doxycycline", "clarithromycin", "azithromycin", "erythromycin", "cefalexin",
                   "cephalexin", "ciprofloxacin", "trimethoprim", "nitrofurantoin", "metronidazole"),
    "painkiller": ("paracetamol", "acetaminophen", "tylenol", "panadol", "ibuprofen", "nurofen", "advil",
                   "naproxen", "codeine", "codamol", "aspirin", "tramadol", "diclofenac"),
    "cholesterol": ("atorvastatin", "simvastatin", "rosuvastatin", "pravastatin", "ezetimibe"),
    "diabetes": ("metformin", "gliclazide", "insulin", "sitagliptin", "empagliflozin", "dapagliflozin"),
    "blood thinner": ("warfarin", "apixaban", "eliquis", "rivaroxaban", "xarelto", "edoxaban", "dabigatran",
                      "clopidogrel"),
    "antidepressant": ("sertraline", "citalopram", "escitalopram", "fluoxetine", "mirtazapine", "venlafaxine",
                       "duloxetine", "amitriptyline"),
    "allergy": ("cetirizine", "loratadine", "fexofenadine", "chlorphenamine", "piriton", "antihistamine"),
    "stomach": ("omeprazole", "lansoprazole", "esomeprazole", "pantoprazole", "ranitidine", "famotidine",
                "gaviscon"),
    "thyroid": ("levothyroxine", "thyroxine"),
    "inhaler": ("salbutamol", "ventolin", "beclometasone", "symbicort", "seretide"),
    "memory": ("donepezil", "aricept", "memantine", "rivastigmine", "galantamine"),
    "sleeping": ("zopiclone", "zolpidem", "melatonin", "temazepam"),
    "water": ("furosemide", "bumetanide", "spironolactone"),
}
"""A kind's words -> the medicines of that kind."""
