"""Ratings in and out: rating lists matched to the members, the competition out as TRF."""
