// walk
