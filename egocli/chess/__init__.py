"""The chess co-pilot: board localisation, square classifier, vote buffer, legality repair, engine, coach."""
